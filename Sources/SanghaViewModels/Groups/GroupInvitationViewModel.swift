import Foundation
import SanghaCore

/// `/groups/invite/{token}`: the group an invitation link leads to, and "Join group".
public struct GroupInvitationViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let intro: String
    /// The form's address when the person can join; nil when they are a member already.
    public let joinURL: String?
    public let joinLabel = "Join group"
    /// The group's page, for a member already (nil before joining: it would be 404).
    public let groupURL: String?
    public let groupLabel = "Open the group"

    public static let removedMessage =
        "A host of this group removed you: no invitation link lets you join again until a host lets you back in."
    public static let invalidMessage =
        "This invitation link is not valid: it may have expired or been revoked. Ask a host of the group for a new one."

    public init(preview: GroupInvitationPreview, token: String, context: PageContext) {
        let name = preview.group.name
        layout = LayoutViewModel(title: "Join \(name)", section: .groups, context: context)
        heading = name
        if preview.isMember {
            intro = "You are a member of \(name)."
            joinURL = nil
            groupURL = Paths.group.url(preview.group.id)
        } else {
            intro = "You are invited to join \(name), a group that sits together."
            joinURL = Paths.groupInvitationLink.url(token)
            groupURL = nil
        }
    }

    /// The invitation's page; not found when the link is unknown, expired or revoked.
    public static func load(token: String, key: String, groups: any GroupRepository, context: PageContext) async
        -> LoadOutcome<GroupInvitationViewModel>
    {
        do {
            guard let preview = try await groups.invitation(key: key, at: context.now) else {
                return .failed(
                    ErrorPageViewModel(heading: "Invitation not valid", message: invalidMessage, context: context),
                    .notFound)
            }
            return .page(GroupInvitationViewModel(preview: preview, token: token, context: context))
        } catch {
            return .failed(
                ErrorPageViewModel(
                    heading: "The invitation could not be read",
                    message: StorageMessage.text(for: error, otherwise: "Please try again."), context: context),
                .storage)
        }
    }

    /// "Join group": the group's page.
    public static func join(key: String, groups: any GroupRepository, context: PageContext) async
        -> SubmitOutcome<GroupInvitationViewModel>
    {
        do {
            let group = try await groups.join(key: key, at: context.now)
            return .redirect(Redirect(to: Paths.group.url(group), flash: .success("Welcome to the group.")))
        } catch GroupRepositoryError.notFound {
            return .notFound
        } catch GroupRepositoryError.removed {
            return .refused(
                Redirect(to: Paths.groups.url, flash: .error(title: "You did not join.", message: removedMessage)))
        } catch {
            let message = StorageMessage.text(for: error, otherwise: "Joining failed. Please try again.")
            return .refused(Redirect(to: Paths.groups.url, flash: .error(title: "You did not join.", message: message)))
        }
    }
}
