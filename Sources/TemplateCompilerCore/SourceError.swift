/// What is wrong in a source the build reads (a template, a language catalog), at its file and
/// line, printed as compilers print it, so SwiftPM shows it at that line.
public struct SourceError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let line: Int
    public let message: String

    public init(file: String, line: Int, message: String) {
        (self.file, self.line, self.message) = (file, line, message)
    }

    public var description: String { "\(file):\(line): error: \(message)" }
}

/// Text as a Swift string literal, for the code the build tools write.
public enum SwiftLiteral {
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
