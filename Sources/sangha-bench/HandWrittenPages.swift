import SanghaViewModels

/// The friends list and profile editor pages written directly in Swift, byte for byte what the
/// Mustache templates render: the baseline the template engine is measured against.
enum HandWrittenPages {
    static func friendsList(_ page: FriendsListViewModel) -> String {
        var html = HTMLWriter()
        layoutTop(&html, page.layout)
        html.raw(
            """
            <div class="page-header">
              <h1>Friends</h1>
              <a class="button" href="
            """)
        html.text(page.addURL)
        html.raw("\">Add friend</a>\n</div>\n<form class=\"search\" method=\"get\" action=\"")
        html.text(page.searchURL)
        html.raw(
            """
            " role="search">
              <label for="search-q">Search friends</label>
              <div class="search-row">
                <input id="search-q" name="q" type="search" value="
            """)
        html.text(page.query)
        html.raw(
            """
            " placeholder="Name or phone number">
                <button type="submit" class="button-secondary">Search</button>

            """)
        if page.hasQuery {
            html.raw("    <a class=\"search-clear\" href=\"")
            html.text(page.searchURL)
            html.raw("\">Clear search</a>\n")
        }
        html.raw("  </div>\n</form>\n")
        if let message = page.errorMessage {
            html.raw("<p class=\"list-message list-error\" role=\"alert\">")
            html.text(message)
            html.raw("</p>\n")
        }
        if let notice = page.savedNotice {
            html.raw("<p class=\"saved-notice\">")
            html.text(notice)
            html.raw("</p>\n")
        }
        if page.hasRows {
            html.raw("<ul class=\"item-list\">\n")
            for row in page.rows { friendRow(&html, row, formToken: page.layout.formToken) }
            html.raw("</ul>\n")
        }
        if let message = page.emptyMessage {
            html.raw("<p class=\"list-message list-empty\">")
            html.text(message)
            html.raw("</p>\n")
        }
        if let paging = page.paging { pagingNav(&html, paging) }
        layoutBottom(&html)
        return html.string
    }

    static func pagingNav(_ html: inout HTMLWriter, _ paging: PagingViewModel) {
        html.raw("<nav class=\"paging\" aria-label=\"Pages\">\n")
        if let url = paging.previousURL {
            html.raw("  <a href=\"")
            html.text(url)
            html.raw("\" rel=\"prev\">Previous</a>\n")
        }
        html.raw("  <span class=\"paging-label\">")
        html.text(paging.label)
        html.raw("</span>\n")
        if let url = paging.nextURL {
            html.raw("  <a href=\"")
            html.text(url)
            html.raw("\" rel=\"next\">Next</a>\n")
        }
        html.raw("</nav>\n")
    }

    static func friendRow(_ html: inout HTMLWriter, _ row: FriendRowViewModel, formToken: String) {
        html.raw("<li class=\"item\">\n  <div class=\"item-info\">\n    <span class=\"item-name\">")
        html.text(row.fullName)
        html.raw("</span>\n    <span class=\"item-detail\">")
        html.text(row.phoneNumberText)
        html.raw("</span>\n  </div>\n  <div class=\"item-actions\">\n    <a class=\"button button-secondary\" href=\"")
        html.text(row.editURL)
        html.raw("\" aria-label=\"")
        html.text(row.editLabel)
        html.raw("\">Edit</a>\n    <form method=\"post\" action=\"")
        html.text(row.deleteURL)
        html.raw("\" data-confirm=\"")
        html.text(row.deleteConfirmation)
        html.raw("\">\n      <input type=\"hidden\" name=\"_csrf\" value=\"")
        html.text(formToken)
        html.raw("\">\n      <input type=\"hidden\" name=\"fullName\" value=\"")
        html.text(row.fullName)
        html.raw("\">\n      <button type=\"submit\" class=\"button-danger\" aria-label=\"")
        html.text(row.deleteLabel)
        html.raw("\">Delete</button>\n    </form>\n  </div>\n</li>\n")
    }

    static func profileEditor(_ page: ProfileEditorViewModel) -> String {
        var html = HTMLWriter()
        layoutTop(&html, page.layout)
        html.raw("<div class=\"page-header\">\n  <h1>")
        html.text(page.heading)
        html.raw("</h1>\n  <a href=\"")
        html.text(page.sitURL)
        html.raw("\">Sit with this profile</a>\n  <a href=\"")
        html.text(page.listURL)
        html.raw("\">All profiles</a>\n</div>\n")
        if let alert = page.alert {
            html.raw("<div class=\"alert\" role=\"alert\">\n  <p class=\"alert-title\">")
            html.text(alert.title)
            html.raw("</p>\n  <p>")
            html.text(alert.message)
            html.raw("</p>\n</div>\n")
        }
        html.raw("<form class=\"form profile-form\" method=\"post\" action=\"")
        html.text(page.actionURL)
        html.raw("\">\n  <input type=\"hidden\" name=\"_csrf\" value=\"")
        html.text(page.layout.formToken)
        html.raw("\">\n  <input type=\"hidden\" name=\"version\" value=\"")
        html.text(String(page.version))
        html.raw("\">\n")
        formField(&html, page.nameField, indent: "  ")
        for section in page.sections { profileSection(&html, section) }
        html.raw("  <p class=\"total\">Total session <strong>")
        html.text(page.totalText)
        html.raw(
            """
            </strong></p>
              <div class="form-actions">
                <button type="submit">Save</button>
              </div>
            </form>
            <form class="delete-form" method="post" action="
            """)
        html.text(page.deleteURL)
        html.raw("\" data-confirm=\"")
        html.text(page.deleteConfirmation)
        html.raw("\">\n  <input type=\"hidden\" name=\"_csrf\" value=\"")
        html.text(page.layout.formToken)
        html.raw("\">\n  <button type=\"submit\" class=\"button-danger\">Delete</button>\n</form>\n")
        layoutBottom(&html)
        return html.string
    }

    static func profileSection(_ html: inout HTMLWriter, _ section: ProfileSectionViewModel) {
        html.raw("  <section class=\"profile-section\" aria-labelledby=\"")
        html.text(section.headingID)
        html.raw("\">\n    <h2 id=\"")
        html.text(section.headingID)
        html.raw("\">")
        html.text(section.title)
        html.raw("</h2>\n")
        if section.hasSwitch {
            html.raw("    <div class=\"switch\">\n      <input type=\"checkbox\" id=\"")
            html.text(section.switchID)
            html.raw("\" name=\"")
            html.text(section.switchName)
            html.raw("\" value=\"on\" data-submit-on-change")
            if section.isOn { html.raw(" checked") }
            html.raw(">\n      <label for=\"")
            html.text(section.switchID)
            html.raw("\">")
            html.text(section.title)
            html.raw(" on</label>\n    </div>\n")
        }
        if section.isOn {
            formField(&html, section.durationField, indent: "    ")
            if section.hasSounds {
                html.raw("    <fieldset class=\"sounds\">\n      <legend>Sounds</legend>\n")
                for (index, sound) in section.sounds.enumerated() {
                    soundRow(&html, sound, first: index == 0)
                }
                html.raw("    </fieldset>\n")
            }
        }
        html.raw("  </section>\n")
    }

    /// The sound row as swift-mustache indents a partial inside a loop: the first line of each
    /// repetition after the first, and the options after the first, lose the partial's indent.
    static func soundRow(_ html: inout HTMLWriter, _ sound: SoundRowViewModel, first: Bool) {
        html.raw(first ? "      <div class=\"sound\">\n" : "    <div class=\"sound\">\n")
        html.raw("        <div class=\"switch\">\n          <input type=\"checkbox\" id=\"")
        html.text(sound.enabledID)
        html.raw("\" name=\"")
        html.text(sound.enabledName)
        html.raw("\" value=\"on\"")
        if sound.isEnabled { html.raw(" checked") }
        html.raw(">\n          <label for=\"")
        html.text(sound.enabledID)
        html.raw("\">")
        html.text(sound.label)
        html.raw("</label>\n        </div>\n        <select id=\"")
        html.text(sound.nameID)
        html.raw("\" name=\"")
        html.text(sound.nameName)
        html.raw("\" aria-label=\"")
        html.text(sound.nameLabel)
        html.raw("\"")
        if sound.hasNameError {
            html.raw(" aria-invalid=\"true\" aria-describedby=\"")
            html.text(sound.nameErrorID)
            html.raw("\"")
        }
        html.raw(">\n")
        for (index, option) in sound.options.enumerated() {
            html.raw(index == 0 ? "          <option value=\"" : "    <option value=\"")
            html.text(option.value)
            html.raw("\" data-sound=\"")
            html.text(option.soundURL)
            html.raw("\"")
            if option.isSelected { html.raw(" selected") }
            html.raw(">")
            html.text(option.label)
            html.raw("</option>\n")
        }
        html.raw("        </select>\n        <button type=\"button\" class=\"sound-preview\" data-preview=\"")
        html.text(sound.nameID)
        html.raw("\" aria-label=\"Play ")
        html.text(sound.nameLabel)
        html.raw("\" hidden>Play</button>\n")
        if sound.hasNameError {
            html.raw("        <p class=\"field-error\" id=\"")
            html.text(sound.nameErrorID)
            html.raw("\">")
            html.text(sound.nameError ?? "")
            html.raw("</p>\n")
        }
        if let repetition = sound.repetition {
            html.raw("        <div class=\"sound-repeat\">\n")
            formField(&html, repetition.interval, indent: "          ")
            formField(&html, repetition.iterations, indent: "          ")
            html.raw("        </div>\n")
        }
        html.raw("      </div>\n")
    }

    static func formField(_ html: inout HTMLWriter, _ field: FormFieldViewModel, indent: String) {
        html.raw(indent)
        html.raw(field.hasError ? "<div class=\"field field-invalid\">\n" : "<div class=\"field\">\n")
        html.raw(indent)
        html.raw("  <label for=\"")
        html.text(field.inputID)
        html.raw("\">")
        html.text(field.label)
        html.raw("</label>\n")
        if field.hasHint {
            html.raw(indent)
            html.raw("  <p class=\"field-hint\" id=\"")
            html.text(field.hintID)
            html.raw("\">")
            html.text(field.hint ?? "")
            html.raw("</p>\n")
        }
        html.raw(indent)
        html.raw("  <input id=\"")
        html.text(field.inputID)
        html.raw("\" name=\"")
        html.text(field.name)
        html.raw("\" type=\"")
        html.text(field.inputType.rawValue)
        html.raw("\" value=\"")
        html.text(field.value)
        html.raw("\" autocomplete=\"")
        html.text(field.autocomplete)
        html.raw("\" maxlength=\"")
        html.text(String(field.maxLength))
        html.raw("\" required")
        if field.hasClientRule {
            html.raw(" data-rule=\"")
            html.text(field.clientRule ?? "")
            html.raw("\" data-label=\"")
            html.text(field.label)
            html.raw("\"")
        }
        if field.hasError { html.raw(" aria-invalid=\"true\"") }
        if let describedBy = field.describedBy {
            html.raw(" aria-describedby=\"")
            html.text(describedBy)
            html.raw("\"")
        }
        html.raw(">\n")
        if field.hasError {
            html.raw(indent)
            html.raw("  <p class=\"field-error\" id=\"")
            html.text(field.errorID)
            html.raw("\">")
            html.text(field.error ?? "")
            html.raw("</p>\n")
        }
        html.raw(indent)
        html.raw("</div>\n")
    }

    static func layoutTop(_ html: inout HTMLWriter, _ layout: LayoutViewModel) {
        html.raw(
            """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>
            """)
        html.text(layout.title)
        html.raw(
            """
             · Sangha</title>
            <link rel="stylesheet" href="
            """)
        html.text(layout.assets.stylesheet)
        html.raw("\">\n<link rel=\"icon\" href=\"")
        html.text(layout.assets.icon)
        html.raw("\" type=\"image/svg+xml\">\n<script src=\"")
        html.text(layout.assets.script)
        html.raw(
            """
            " defer></script>
            </head>
            <body>
            <a class="skip-link" href="#main">Skip to content</a>
            <header class="site-header">
              <a class="brand" href="/">Sangha</a>

            """)
        if let account = layout.account {
            html.raw("  <nav aria-label=\"Main\">\n    <ul>\n")
            for item in account.navigation {
                html.raw("      <li><a href=\"")
                html.text(item.url)
                html.raw("\"")
                if item.isCurrent { html.raw(" aria-current=\"page\"") }
                html.raw(">")
                html.text(item.label)
                html.raw("</a></li>\n")
            }
            html.raw("    </ul>\n  </nav>\n  <div class=\"account\">\n    <a href=\"")
            html.text(account.meURL)
            html.raw("\"")
            if account.isMeCurrent { html.raw(" aria-current=\"page\"") }
            html.raw(">")
            html.text(account.name)
            html.raw("</a>\n    <a href=\"")
            html.text(account.settingsURL)
            html.raw("\"")
            if account.isSettingsCurrent { html.raw(" aria-current=\"page\"") }
            html.raw(">Settings</a>\n    <form method=\"post\" action=\"")
            html.text(account.signOutURL)
            html.raw("\">\n      <input type=\"hidden\" name=\"_csrf\" value=\"")
            html.text(layout.formToken)
            html.raw(
                "\">\n      <button type=\"submit\" class=\"link-button\">Sign out</button>\n    </form>\n  </div>\n")
        }
        html.raw("</header>\n<main id=\"main\">\n")
        if let flash = layout.flash {
            if flash.isError {
                html.raw("<div class=\"flash flash-error\" role=\"alert\">\n")
                if let title = flash.errorTitle {
                    html.raw("  <p class=\"flash-title\">")
                    html.text(title)
                    html.raw("</p>\n")
                }
                html.raw("  <p>")
                html.text(flash.message)
                html.raw("</p>\n</div>\n")
            } else {
                html.raw("<div class=\"flash flash-success\" role=\"status\">\n  <p>")
                html.text(flash.message)
                html.raw("</p>\n</div>\n")
            }
        }
    }

    static func layoutBottom(_ html: inout HTMLWriter) {
        html.raw("\n</main>\n</body>\n</html>\n")
    }
}

/// Appends text to a page, escaping what a template's `{{name}}` escapes.
struct HTMLWriter {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(16 * 1024) }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func text(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): bytes.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): bytes.append(contentsOf: "&#39;".utf8)
            default: bytes.append(byte)
            }
        }
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
