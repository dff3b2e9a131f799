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
