import ArgumentParser
import Foundation
import SanghaCore
import SanghaPostgres
import SanghaStore
import SanghaViewModels
import SanghaWeb

/// `sangha people …`: the operator's way in that needs no web page (an administrator who forgot
/// their password, or left). On the same data as `sangha serve`, safely while it runs.
struct PeopleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "List the people of a deployment, invite someone, and give back a way in, without the web page.",
        discussion: """
            Each works on the data sangha serve uses (--data-dir, or --database-url for PostgreSQL), safely while \
            it runs. Links are printed with --public-url's address (the one people use), else this machine's. \
            A deployment is never left without a way in: the last administrator who can sign in is not disabled.
            """,
        subcommands: [List.self, Invite.self, ResetLink.self, MakeAdmin.self, Disable.self, Enable.self]
    )

    /// Where the data is, and the address links are printed with.
    struct Data: ParsableArguments {
        @Option(help: "The data folder sangha serve uses, holding sangha.sqlite. (default: data; env: SANGHA_DATA_DIR)")
        var dataDir: String?

        @Option(help: "postgres://USER[:PASSWORD]@HOST:PORT/DATABASE, as sangha serve. (env: SANGHA_DATABASE_URL)")
        var databaseURL: String?

        @Option(help: "The address people use, for the links printed. (env: SANGHA_PUBLIC_URL)")
        var publicURL: String?

        /// Runs `body` on the deployment's people, opened as `sangha serve` opens them.
        func withPeople<Value>(_ body: (any PeopleRepository) async throws -> Value) async throws -> Value {
            try await withData { people, _ in try await body(people) }
        }

        /// Runs `body` on the deployment's people and data, opened as `sangha serve` opens them.
        /// A running `serve` sees what it changes at once: on PostgreSQL by the notices every
        /// change sends, on SQLite by its check for other processes' writes to the file.
        func withData<Value>(_ body: (any PeopleRepository, any PersonalData) async throws -> Value) async throws
            -> Value
        {
            let source = SettingSource.process
            if let text = databaseURL ?? source.text("SANGHA_DATABASE_URL") {
                guard case .success(let configuration) = PostgresDatabase.configuration(url: text) else {
                    throw PeopleFailure(
                        "--database-url must be postgres://USER[:PASSWORD]@HOST:PORT/DATABASE, got '\(ServeSettings.redacted(text))'."
                    )
                }
                let database = PostgresDatabase(
                    configuration: configuration, timeout: .seconds(10), logger: .init(label: "postgres"))
                let pool = Task { await database.client.run() }
                defer { pool.cancel() }
                do {
                    _ = try await database.migrate()
                } catch {
                    throw PeopleFailure("The database could not be reached: \(error)")
                }
                let data = PostgresPersonalData(database: database)
                return try await body(data.people, data)
            }
            let directory = source.dataDirectory(dataDir)
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("sangha.sqlite").path) else {
                throw PeopleFailure(
                    "There is no sangha.sqlite in \(directory.path): name the data folder sangha serve uses with --data-dir."
                )
            }
            let data = SQLitePersonalData(database: try SanghaDatabase.open(directory: directory))
            return try await body(data.people, data)
        }

        /// `path` on the address people use: `--public-url`'s; else the one the `serve` on the
        /// same data folder uses (its public URL, or where it listens); else `SANGHA_HOST` and
        /// `SANGHA_PORT`'s, as `serve` would listen. A link on a loopback address comes with a
        /// note that it works on this machine only.
        func link(_ path: String) -> String {
            let source = SettingSource.process
            if let base = publicURL ?? source.text("SANGHA_PUBLIC_URL") {
                return base.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + path
            }
            let serving =
                source.text("SANGHA_DATABASE_URL") == nil && databaseURL == nil
                ? DataFolder.servingAddress(of: SanghaDatabase.fileName, in: source.dataDirectory(dataDir)) : nil
            let base = serving ?? Self.listeningAddress(source)
            if let host = URL(string: base)?.host, ["127.0.0.1", "localhost", "::1"].contains(host) {
                FileHandle.standardError.write(
                    Foundation.Data(
                        "No --public-url: this link works on this machine only (\(base)). Give the address people use with --public-url or SANGHA_PUBLIC_URL.\n"
                            .utf8))
            }
            return base + path
        }

        /// Where `serve` would listen with this environment.
        static func listeningAddress(_ source: SettingSource) -> String {
            ServeSettings.address(
                host: source.text("SANGHA_HOST") ?? "127.0.0.1",
                port: source.text("SANGHA_PORT").flatMap(Int.init) ?? AppConfiguration.defaultPort)
        }
    }

    /// The person `username` is, or a message that says there is none.
    static func person(_ username: String, in people: any PeopleRepository) async throws -> Person {
        guard let person = try await people.credentials(username: username)?.person else {
            throw PeopleFailure("There is no one with the username \(username).")
        }
        return person
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Everyone, with who administers and who is disabled.")
        @OptionGroup var data: Data

        /// People printed per read: however many there are, no read holds them all.
        static let pageSize = 500

        func run() async throws {
            let now = Date()
            try await data.withPeople { people in
                var offset = 0
                while true {
                    let page = try await people.overview(at: now, limit: Self.pageSize, offset: offset)
                    if offset == 0, page.people.isEmpty {
                        print("No one has an account yet: the first to sign up becomes the administrator.")
                    }
                    for entry in page.people { print(Self.line(entry)) }
                    offset += page.people.count
                    if page.people.count < Self.pageSize { return }
                }
            }
        }

        /// username, name, what they are, their last sign-in: tab-separated.
        static func line(_ entry: PersonOverview) -> String {
            let person = entry.person
            var notes: [String] = []
            if person.isAdministrator { notes.append("administrator") }
            if person.isDisabled { notes.append("disabled") }
            let last = entry.lastSignIn.map { "last sign-in \($0.formatted(.iso8601))" } ?? "never signed in"
            return ([person.username, person.name] + notes + [last]).joined(separator: "\t")
        }
    }

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a one-use sign-up link, good for 7 days (with --sign-up invite, the default).")
        @OptionGroup var data: Data

        func run() async throws {
            let link = try await data.withPeople { people in
                // An invitation is someone's: the first administrator's, as if they had made it.
                let everyone = try await people.overview(at: Date()).map(\.person)
                guard let inviter = everyone.first(where: \.isAdministrator) ?? everyone.first else {
                    throw PeopleFailure(
                        "No one has an account yet: the first to sign up at \(data.link(Paths.signUp.url)) becomes the administrator, no invitation needed."
                    )
                }
                return try await data.oneUseLink(.invitation, of: inviter, in: people) { Paths.invitation($0) }
            }
            print(link)
        }
    }

    struct ResetLink: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-link",
            abstract: "Print a one-use link that sets USERNAME's password, good for 24 hours.")
        @OptionGroup var data: Data
        @Argument(help: "Whose password the link sets.") var username: String

        func run() async throws {
            let link = try await data.withPeople { people in
                let person = try await PeopleCommand.person(username, in: people)
                return try await data.oneUseLink(.passwordReset, of: person, in: people) { Paths.passwordReset($0) }
            }
            print(link)
        }
    }

    struct MakeAdmin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "make-admin", abstract: "Make USERNAME an administrator (and able to sign in).")
        @OptionGroup var data: Data
        @Argument(help: "Who administers from now on.") var username: String

        func run() async throws {
            let name = try await data.change(username) { people, _, person in
                try await people.makeAdministrator(person.id)
                if person.isDisabled { try await people.setDisabled(false, of: person.id) }
            }
            print("\(name) is an administrator.")
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign USERNAME out everywhere and refuse their sign-ins, until enable.")
        @OptionGroup var data: Data
        @Argument(help: "Who may no longer sign in.") var username: String

        func run() async throws {
            let name = try await data.change(username) { people, groupEvents, person in
                do {
                    try await people.setDisabled(true, of: person.id)
                } catch PeopleRepositoryError.lastAdministrator {
                    throw PeopleFailure(
                        "\(person.name) is the only administrator who can sign in: make another one first (sangha people make-admin USERNAME)."
                    )
                }
                // Their group pages stop hearing the groups at once on every PostgreSQL instance
                // (a SQLite `serve` finds this process's write and checks its streams' sign-ins).
                await groupEvents.publish([.signedOutEverywhere(person: person.id, except: nil)])
            }
            print("\(name) is disabled and signed out everywhere.")
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let USERNAME sign in again.")
        @OptionGroup var data: Data
        @Argument(help: "Who may sign in again.") var username: String

        func run() async throws {
            let name = try await data.change(username) { people, _, person in
                try await people.setDisabled(false, of: person.id)
            }
            print("\(name) can sign in again.")
        }
    }
}

extension PeopleCommand.Data {
    /// Does `change` to the person `username` is; their name. It returns once a running `serve`
    /// sees the change, so what the command then prints is already true there. On PostgreSQL
    /// the change's notices reach every instance as it commits. A SQLite `serve` on the same
    /// folder finds another process's write by its next check of the file (every quarter
    /// second) and uses nothing it kept for longer than `OtherProcessWrites.freshness` after its
    /// last check; so, with one serving the folder, the command waits that long.
    func change(
        _ username: String, _ change: (any PeopleRepository, any GroupEventBus, Person) async throws -> Void
    ) async throws -> String {
        let name = try await withData { people, data in
            let person = try await PeopleCommand.person(username, in: people)
            try await change(people, data.groupEvents, person)
            return person.name
        }
        let source = SettingSource.process
        if databaseURL == nil, source.text("SANGHA_DATABASE_URL") == nil,
            DataFolder.servingAddress(of: SanghaDatabase.fileName, in: source.dataDirectory(dataDir)) != nil
        {
            try await Task.sleep(for: OtherProcessWrites.freshness)
        }
        return name
    }

    /// A new one-use link of `kind`, `person`'s, kept for its lifetime from now; its address, the
    /// token put into `path`.
    func oneUseLink(
        _ kind: OneUseLink.Kind, of person: Person, in people: any PeopleRepository, path: (String) -> String
    ) async throws -> String {
        let token = SecretToken.make()
        try await people.add(
            OneUseLink(
                key: SecretToken.key(of: token), kind: kind, personID: person.id,
                expiresAt: Date().addingTimeInterval(OneUseLink.lifetime(of: kind))))
        return link(path(token))
    }
}

/// Why a `sangha people` command did nothing, said as it is (no usage after it).
struct PeopleFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
