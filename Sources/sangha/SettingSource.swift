import ArgumentParser
import Foundation

/// Where every command of `sangha` reads its settings: a flag given on the command line, else its
/// environment variable (`SANGHA_PORT`, …), else the default. A variable that cannot be used
/// stops the start with a message naming it, never a quiet fallback to the default.
struct SettingSource {
    let environment: [String: String]

    /// The process's own environment.
    static var process: SettingSource { SettingSource(environment: ProcessInfo.processInfo.environment) }

    /// The variable's value; unset and empty are the same.
    func text(_ variable: String) -> String? {
        guard let value = environment[variable], !value.isEmpty else { return nil }
        return value
    }

    /// A repeated flag's values, or else the variable's comma-separated ones.
    func list(_ flag: [String], variable: String) -> [String] {
        guard flag.isEmpty else { return flag }
        return (text(variable) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// A flag given, or its variable set to 1, true, yes or on; 0, false, no or off is the flag
    /// not given, and any other value stops the start.
    func flag(_ flag: Bool = false, variable: String) throws -> Bool {
        guard !flag else { return true }
        guard let value = text(variable) else { return false }
        switch value.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default:
            throw ValidationError(
                "The environment variable \(variable)=\(value) is neither on (1, true, yes, on) nor off (0, false, no, off)."
            )
        }
    }

    /// The flag's number, else the variable's, else nil; a variable that is not a number stops
    /// the start.
    func number<Value: LosslessStringConvertible>(_ flag: Value?, variable: String) throws -> Value? {
        if let flag { return flag }
        guard let text = text(variable) else { return nil }
        guard let value = Value(text) else {
            throw ValidationError("The environment variable \(variable)=\(text) is not a valid \(Value.self).")
        }
        return value
    }

    /// The flag's number, else the variable's, else `fallback`.
    func number<Value: LosslessStringConvertible>(_ flag: Value?, variable: String, default fallback: Value) throws
        -> Value
    {
        try number(flag, variable: variable) ?? fallback
    }

    /// The folder of the SQLite files: `--data-dir`, else `SANGHA_DATA_DIR`, else `data`.
    func dataDirectory(_ flag: String?) -> URL {
        URL(fileURLWithPath: flag ?? text("SANGHA_DATA_DIR") ?? "data")
    }

    func port(_ flag: Int?, flag name: String, variable: String, default fallback: Int) throws -> Int {
        let port = try number(flag, variable: variable, default: fallback)
        guard (0...65535).contains(port) else { throw ValidationError("\(name) must be between 0 and 65535.") }
        return port
    }
}
