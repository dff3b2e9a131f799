import ArgumentParser
import Logging

struct LoggingOptions: ParsableArguments {
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. (env: SANGHA_LOG_LEVEL)")
    var logLevel: Logger.Level = Environment.value("SANGHA_LOG_LEVEL", default: Logger.Level.info)

    func validate() throws {
        try Environment.check("SANGHA_LOG_LEVEL", as: Logger.Level.self)
    }

    func makeLogger(label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = logLevel
        return logger
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
