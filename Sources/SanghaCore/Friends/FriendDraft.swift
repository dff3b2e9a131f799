import Foundation

/// The three fields of a friend that a person types: the body of `POST /addFriend`
/// and of `PATCH /editFriend/{id}`.
public struct FriendDraft: Codable, Sendable, Equatable, Hashable {
    public var firstname: String
    public var lastname: String
    public var phonenumber: String

    public init(firstname: String, lastname: String, phonenumber: String) {
        (self.firstname, self.lastname, self.phonenumber) = (firstname, lastname, phonenumber)
    }

    /// The fields whose values break a rule, with the reason, in form order. Empty when valid.
    public func validationErrors() -> [FriendField: String] {
        var errors: [FriendField: String] = [:]
        for field in FriendField.allCases {
            if let message = field.validate(self[field]) { errors[field] = message }
        }
        return errors
    }

    public subscript(field: FriendField) -> String {
        get {
            switch field {
            case .firstname: firstname
            case .lastname: lastname
            case .phonenumber: phonenumber
            }
        }
        set {
            switch field {
            case .firstname: firstname = newValue
            case .lastname: lastname = newValue
            case .phonenumber: phonenumber = newValue
            }
        }
    }
}
