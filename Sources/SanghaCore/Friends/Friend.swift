import Foundation

/// A friend as the FriendService stores it: `{"id", "firstname", "lastname", "phonenumber"}`.
public struct Friend: Codable, Sendable, Equatable, Hashable, Identifiable {
    public let id: Int
    public var firstname: String
    public var lastname: String
    public var phonenumber: String

    public init(id: Int, firstname: String, lastname: String, phonenumber: String) {
        self.id = id
        self.firstname = firstname
        self.lastname = lastname
        self.phonenumber = phonenumber
    }

    public var fullName: String { firstname + " " + lastname }
}
