import Foundation
import SanghaCore

/// `/groups/invite/{token}`: the group an invitation link leads to, and "Join group".
public struct GroupInvitationViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let intro: String
    /// The form's address when the person can join; nil when they are a member already, or a
    /// host removed them (the intro says so before they press anything).
    public let joinURL: String?
    public let joinLabel: String
    /// The group's page, for a member already (nil before joining: it would be 404).
    public let groupURL: String?
    public let groupLabel: String

    public static let removedMessage = Words.english.groupsRemovedYou

    public init(preview: GroupInvitationPreview, token: String, context: PageContext) {
        let name = preview.group.name
        let words = context.words
        layout = LayoutViewModel(title: words.groupsJoinTitle(name: name), section: .groups, context: context)
        heading = words.isolated(name)
        (joinLabel, groupLabel) = (words.groupsJoinGroup, words.groupsOpenGroup)
        if preview.isMember {
            intro = words.groupsMemberOf(name: name)
            joinURL = nil
            groupURL = Paths.group.url(preview.group.id)
        } else if preview.isRemoved {
            intro = words.groupsRemovedYou
            (joinURL, groupURL) = (nil, nil)
        } else {
            intro = words.groupsInvited(name: name)
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
                    ErrorPageViewModel(
                        heading: context.words.groupsInvitationNotValid, message: context.words.groupsInvalidLink,
                        context: context),
                    .notFound)
            }
            return .page(GroupInvitationViewModel(preview: preview, token: token, context: context))
        } catch {
            return .failed(
                .storage(
                    error, heading: context.words.groupsInvitationUnreadable, otherwise: context.words.groupsTryAgain,
                    context: context),
                .storage)
        }
    }

    /// "Join group": the group's page.
    public static func join(key: String, groups: any GroupRepository, context: PageContext) async
        -> SubmitOutcome<GroupInvitationViewModel>
    {
        let words = context.words
        do {
            let group = try await groups.join(key: key, at: context.now)
            return .redirect(Redirect(to: Paths.group.url(group), flash: .success(words.groupsWelcome)))
        } catch GroupRepositoryError.notFound {
            return .notFound
        } catch GroupRepositoryError.removed {
            return .refused(
                Redirect(
                    to: Paths.groups.url, flash: .error(title: words.groupsDidNotJoin, message: words.groupsRemovedYou))
            )
        } catch {
            let message = StorageMessage.text(for: error, otherwise: words.groupsJoiningFailed, words: words)
            return .refused(
                Redirect(to: Paths.groups.url, flash: .error(title: words.groupsDidNotJoin, message: message)))
        }
    }
}
