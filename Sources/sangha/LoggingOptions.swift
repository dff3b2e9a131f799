import ArgumentParser
import Logging

struct LoggingOptions: ParsableArguments {
    @Option(help: "How much to log. (default: info; env: SANGHA_LOG_LEVEL)")
    var logLevel: Logger.Level?

    func validate() throws {
        _ = try level(.process)
    }

    /// The flag's level, else the variable's, else info.
    func level(_ source: SettingSource) throws -> Logger.Level {
        try source.number(logLevel, variable: "SANGHA_LOG_LEVEL", default: .info)
    }

    func makeLogger(label: String) throws -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = try level(.process)
        return logger
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
