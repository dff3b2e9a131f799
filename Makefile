# Sangha — make run · make test · make snapshots · make format
SWIFT ?= swift
# System libraries the package links: libcurl for URLSession (FoundationNetworking), SQLite for GRDB.
APT_PACKAGES := libcurl4-openssl-dev libsqlite3-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Headless Chromium and its driver for the browser tests, Firefox ESR for the push test (its own
# WebDriver BiDi, no driver); Python tools in a virtual environment.
# sox (with MP3) checks and rebuilds the catalogue's sounds.
BROWSER_PACKAGES := chromium chromium-driver firefox-esr fonts-dejavu-core
SOUND_PACKAGES := sox libsox-fmt-mp3
# rsvg-convert checks and rebuilds the app's icons from the favicon.
ICON_PACKAGES := librsvg2-bin
# A throwaway PostgreSQL server for the conformance suite (scripts/test-postgres.sh).
POSTGRES_PACKAGES := postgresql
# gettext: msgfmt -c, which the catalog tests run over Languages/*.po.
LANGUAGE_PACKAGES := gettext
# gdb: a Swift test run still going after 15 minutes (a hang; it takes one or two) prints every
# thread's stack before it is stopped (scripts/within.sh).
DEBUG_PACKAGES := gdb
VENV := .venv
# Release builds link Swift's standard library and Foundation statically, as a server is
# deployed: the process maps only the code it uses (about 5 MB less resident memory). They carry
# no DWARF debug information (a server's crash backtrace still names each function, from the
# symbol table): it was most of the binary's size and a part of its build time.
RELEASE := -c release --static-swift-stdlib -debug-info-format none

.PHONY: run test build release deps browser-deps bench bench-push loadtest cluster snapshots screenshots sounds icons catalog gallery format lint clean

## Install the Debian packages that are missing (apt-get runs only when one is absent).
deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

## Build in release mode and serve on http://127.0.0.1:8080 (embedded FriendService on 8081).
run: deps release
	.build/release/sangha serve

release: deps
	$(SWIFT) build $(RELEASE) --product sangha

build: deps
	$(SWIFT) build --build-tests

## Formatting, then every test: the page scripts' modules under node --test, Swift tests
## (snapshots are compared, never recorded; the repository suite also on a throwaway PostgreSQL
## server, or SANGHA_TEST_DATABASE_URL's), then the browser, HTML validity and accessibility
## checks in headless Chromium.
test: APT_PACKAGES += $(BROWSER_PACKAGES) $(SOUND_PACKAGES) $(ICON_PACKAGES) $(POSTGRES_PACKAGES) $(DEBUG_PACKAGES) $(LANGUAGE_PACKAGES) nodejs
test: deps lint build browser-deps
	node --test Tests/JavaScript/
	SNAPSHOT_TESTING_RECORD=never scripts/test-postgres.sh run scripts/within.sh 900 $(SWIFT) test --skip-build
	$(VENV)/bin/pytest -q -p no:cacheprovider Tests/Browser

browser-deps: $(VENV)/.installed

$(VENV)/.installed: Tests/Browser/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q -r Tests/Browser/requirements.txt
	touch $@

## The README's screenshots, from a run of the browser tests.
screenshots: APT_PACKAGES += $(BROWSER_PACKAGES)
screenshots: deps build browser-deps
	SCREENSHOT_DIR=docs/screenshots $(VENV)/bin/pytest -q -p no:cacheprovider Tests/Browser -k "not accessibility and not valid"

## What a fresh clone's build costs (and the binary's size); render times of the compiled
## templates against swift-mustache, then wrk against the release server (every page a person
## opens; home, /history and /me with no sessions, a year's log and a three-year log; a group of
## ten; each on SQLite and PostgreSQL), nginx and the FriendService; instructions per request of
## the watched pages (callgrind); home with the FriendService hung against it answering; then a page signed in
## against the version before people (built once) and while others sign in; a real sign-in
## while 40 connections sign in as no one; then PostgreSQL against SQLite, the paged lists with
## large data against a page's worth, 2,000 group event streams (their memory, a page beside
## them, an event's delivery across instances), a sit's 2,000 notifications (to a stand-in push
## service, and the editor while they go out; one push's instructions by callgrind), and two
## instances behind nginx against one.
## Prints medians and ratios (see docs/performance.md).
bench: APT_PACKAGES += wrk curl nginx-light postgresql valgrind
bench: deps
	scripts/bench-build.sh
	$(SWIFT) build $(RELEASE) --product sangha
	$(SWIFT) build $(RELEASE) --product sangha-bench
	scripts/bench.sh
	scripts/bench-instructions.sh
	scripts/bench-breaker.sh
	scripts/bench-people.sh
	scripts/bench-flood.sh
	scripts/bench-scale.sh
	scripts/bench-events.sh
	$(MAKE) --no-print-directory bench-push
	CLUSTER_PORT=$$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') \
	  scripts/cluster.sh --bench

## A group sit's 2,000 notifications to a stand-in push service on loopback (nginx): the time
## until the last is answered, the editor while they go out, and one push's instructions
## (callgrind); `make bench` runs it too (see docs/performance.md).
bench-push: APT_PACKAGES += wrk curl nginx-light valgrind
bench-push: deps
	$(SWIFT) build $(RELEASE) --product sangha
	$(SWIFT) build $(RELEASE) --product sangha-bench
	scripts/bench-push.sh

## wrk against the release build: GET /friends, GET /profiles/1, a form post; 64 connections,
## 30 s each. Fails on any non-2xx/3xx answer or socket error.
loadtest: APT_PACKAGES += wrk curl
loadtest: deps release
	scripts/loadtest.sh

## Two instances on PostgreSQL behind nginx on http://127.0.0.1:8080 (CLUSTER_PORT), with one
## FriendService, in a temporary folder; Ctrl-C stops everything. `scripts/cluster.sh --bench`
## compares one instance with two behind nginx.
cluster: APT_PACKAGES += nginx-light curl postgresql
cluster: deps release
	scripts/cluster.sh

## Record the snapshots again after a deliberate change (the fixtures' HTML and the whole
## responses the route tests compare, all in SanghaWebTests); review the diff before committing.
snapshots: build
	SNAPSHOT_TESTING_RECORD=all $(SWIFT) test --skip-build --filter SanghaWebTests || true
	git status --short Tests

## Every fixture of every page and component at http://127.0.0.1:8090/_gallery, rendered from the
## templates on disk (edit one and reload).
gallery: deps
	$(SWIFT) run sangha-gallery --port 8090 "$(CURDIR)"

## Templates/view-models.json, the view models' stored properties that the build's template
## compiler reads: run after changing a view model a template shows (make test checks it).
catalog:
	$(SWIFT) run view-model-catalog "$(CURDIR)"

## The catalogue's sounds (Public/sounds/*.mp3), synthesized by sox from the script's parameters.
sounds: APT_PACKAGES += $(SOUND_PACKAGES)
sounds: deps
	scripts/make-sounds.sh

## The app's icons (Public/icons/*.png), drawn by rsvg-convert from Public/favicon.svg.
icons: APT_PACKAGES += $(ICON_PACKAGES)
icons: deps
	scripts/make-icons.sh

format:
	$(SWIFT) format --in-place --recursive Sources Tests Plugins Package.swift

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Plugins Package.swift

clean:
	rm -rf .build
