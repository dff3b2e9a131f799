import SanghaCore

/// The body of `POST /addFriend` and `PATCH /editFriend/{id}`.
///
/// Every field is optional: an edit may change any of the three, and an add missing one gets
/// the contract's 400 with a reason naming it rather than a decoder's message.
public struct FriendPatch: Decodable, Sendable {
    public var firstname: String?
    public var lastname: String?
    public var phonenumber: String?

    subscript(field: FriendField) -> String? {
        switch field {
        case .firstname: firstname
        case .lastname: lastname
        case .phonenumber: phonenumber
        }
    }
}
