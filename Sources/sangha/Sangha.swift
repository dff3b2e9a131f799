import ArgumentParser
import Foundation

@main
struct Sangha: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sangha",
        abstract: "Sangha: meditation profiles and friends, served as HTML pages.",
        discussion: """
            Every option can also be set by the environment variable named in its help; an option \
            on the command line wins over the variable.
            """,
        subcommands: [
            ServeCommand.self, FriendServiceCommand.self, BackupCommand.self, RestoreCommand.self, PeopleCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )

    /// Every file Sangha makes (its databases, their `-wal` and `-shm`, backups) is its user's
    /// alone: they hold password hashes and the cookie secret.
    static func main() async {
        umask(0o077)
        MallocArenas.limit()
        await main(nil)
    }
}
