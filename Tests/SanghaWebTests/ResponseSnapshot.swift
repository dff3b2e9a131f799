import Foundation
import HummingbirdTesting
import SnapshotTesting

/// Compares the whole of `response` (`Snapshotting.response`: the status, the headers that
/// matter, the body) with `__Snapshots__/FILE/TEST.NAME.txt`, where FILE is the test's file and
/// TEST its function: a page a test is about is read whole, and a change to it shows in review as
/// a diff of what a browser receives.
func assertResponse(
    _ response: TestResponse, named name: String, fileID: StaticString = #fileID, file: StaticString = #filePath,
    testName: String = #function, line: UInt = #line, column: UInt = #column
) {
    assertSnapshot(
        of: response, as: .response, named: name, fileID: fileID, file: file, testName: testName, line: line,
        column: column)
}

/// A `Set-Cookie` value as the snapshots show it: `name=value`, then its attributes in a fixed
/// order; a session's key as `SESSION`.
func cookieShown(_ value: String) -> String {
    Snapshotting<TestResponse, String>.secretsNamed(Snapshotting<TestResponse, String>.attributesSorted(value))
}

/// The form token each of a page's forms carries (`name="_csrf" value="…"`), in page order.
func formTokens(in body: String) -> [String] {
    body.matches(of: /name="_csrf" value="([^"]*)"/).map { String($0.1) }
}

/// A `Set-Cookie` value's attributes, sorted (its value aside: a signed one changes from run
/// to run).
func cookieAttributes(_ value: String) -> [String] {
    value.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
}

/// The alerts of a page (`Layout/alert.mustache`), each as its title and its message.
func alerts(in body: String) -> [[String]] {
    body.matches(of: /<div class="alert" role="alert">\n  <p class="alert-title">([^<]*)<\/p>\n  <p>([^<]*)<\/p>/)
        .map { [String($0.1), String($0.2)] }
}
