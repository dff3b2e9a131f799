import ArgumentParser
import Foundation

/// Every flag of `sangha` can also come from an environment variable (`SANGHA_PORT`, …).
/// A flag given on the command line wins over the variable.
enum Environment {
    static func string(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    static func value<Value: LosslessStringConvertible>(_ name: String, default fallback: Value) -> Value {
        string(name).flatMap(Value.init) ?? fallback
    }

    static func flag(_ name: String) -> Bool {
        guard let value = string(name)?.lowercased() else { return false }
        return ["1", "true", "yes", "on"].contains(value)
    }

    /// Fails with a clear message when a variable is set to something that is not a `Value`,
    /// instead of quietly using the default.
    static func check<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) throws {
        if let text = string(name), Value(text) == nil {
            throw ValidationError("The environment variable \(name)=\(text) is not a valid \(Value.self).")
        }
    }
}
