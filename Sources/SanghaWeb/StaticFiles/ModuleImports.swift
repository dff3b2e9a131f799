import Foundation

/// The modules a script imports, by the paths its `import` statements name.
enum ModuleImports {
    /// `bytes` (the script at `path`, `/js/sangha.js`) with each relative module specifier of
    /// its import and re-export statements (`import … from "./x.js"`, `import "./x.js"`,
    /// `} from "./x.js"` ending a list over lines, `export … from "./x.js"`; relative, or
    /// absolute as "/js/x.js") replaced by what
    /// `rename` answers for the path it names (`/js/x.js`); one it answers nil for stays.
    /// Only a line that begins such a statement is read, so a quote in a comment or a string
    /// elsewhere changes nothing.
    static func rewrite(_ bytes: [UInt8], of path: String, rename: (String) -> String?) -> [UInt8] {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let rewritten = lines.map { line -> String in
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            guard trimmed.hasPrefix("import") || trimmed.hasPrefix("export") || trimmed.hasPrefix("}"),
                let (range, specifier) = specifier(in: line),
                specifier.hasPrefix("./") || specifier.hasPrefix("../") || specifier.hasPrefix("/"),
                let target = resolve(specifier, in: directory), let renamed = rename(target)
            else { return String(line) }
            return line[..<range.lowerBound] + renamedSpecifier(specifier, to: renamed) + line[range.upperBound...]
        }
        return Array(rewritten.joined(separator: "\n").utf8)
    }

    /// The quoted specifier after the line's last `from` or its `import`, and where it stands
    /// (without its quotes).
    static func specifier(in line: Substring) -> (Range<Substring.Index>, String)? {
        for keyword in ["from", "import"] {
            guard let found = line.range(of: keyword, options: .backwards) else { continue }
            let after = line[found.upperBound...].drop(while: { $0 == " " })
            guard let mark = after.first, mark == "\"" || mark == "'" else { continue }
            let start = after.index(after: after.startIndex)
            guard let end = after[start...].firstIndex(of: mark) else { return nil }
            return (start..<end, String(after[start..<end]))
        }
        return nil
    }

    /// The absolute path `specifier` names from `directory` (its segments), or nil above the root.
    static func resolve(_ specifier: String, in directory: ArraySlice<Substring>) -> String? {
        if specifier.hasPrefix("/") { return specifier }
        var segments = Array(directory)
        for part in specifier.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case ".": continue
            case "..":
                guard segments.count > 1 else { return nil }
                segments.removeLast()
            default: segments.append(part)
            }
        }
        return segments.joined(separator: "/")
    }

    /// `specifier` naming `renamed`'s file instead: "./forms.js" → "./forms.1a2b….js", and
    /// "/js/forms.js" → "/js/forms.1a2b….js".
    static func renamedSpecifier(_ specifier: String, to renamed: String) -> String {
        if specifier.hasPrefix("/") { return renamed }
        let name = renamed.split(separator: "/").last.map(String.init) ?? renamed
        return (specifier.split(separator: "/", omittingEmptySubsequences: false).dropLast() + [Substring(name)])
            .joined(separator: "/")
    }
}
