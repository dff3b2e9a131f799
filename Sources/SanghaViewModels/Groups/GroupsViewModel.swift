import Foundation
import SanghaCore

/// `/groups`: the person's groups and the form that creates one.
public struct GroupsViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let groups: [GroupRowViewModel]
    public let hasGroups: Bool
    /// Said when the person is in no group.
    public let emptyText: String?
    public let createHeading: String
    public let actionURL: String = Paths.groups.url
    public let name: FormFieldViewModel
    public let submitLabel: String
    public let alert: AlertViewModel?

    public init(
        groups: [GroupSummary], context: PageContext, name: String = "", nameError: String? = nil,
        alert: AlertViewModel? = nil
    ) {
        let words = context.words
        self.layout = LayoutViewModel(title: words.groupsTitle, section: .groups, context: context)
        (heading, createHeading, submitLabel) = (words.groupsTitle, words.groupsCreateHeading, words.groupsCreate)
        self.groups = groups.map { GroupRowViewModel($0, words: words) }
        hasGroups = !groups.isEmpty
        emptyText = groups.isEmpty && alert == nil ? words.groupsNoneYet : nil
        self.name = FormFieldViewModel(
            names: FieldNames(name: "name"), label: words.groupsName, value: name, error: nameError,
            maxLength: SittingGroup.nameLengthLimit)
        self.alert = alert
    }

    public static func load(groups: any GroupRepository, context: PageContext) async -> LoadOutcome<GroupsViewModel> {
        do {
            return .page(GroupsViewModel(groups: try await groups.list(), context: context))
        } catch {
            return .partial(
                GroupsViewModel(groups: [], context: context, alert: unavailable(error, words: context.words)), .storage
            )
        }
    }

    /// "Create group": the new group's page, or the form again with why not.
    public static func create(name: String, groups: any GroupRepository, context: PageContext) async
        -> SubmitOutcome<GroupsViewModel>
    {
        let words = context.words
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = SittingGroup.validateName(trimmed, words: words) {
            let list = (try? await groups.list()) ?? []
            return .invalid(GroupsViewModel(groups: list, context: context, name: name, nameError: problem))
        }
        do {
            let group = try await groups.create(name: trimmed, at: context.now)
            return .redirect(Redirect(to: Paths.group.url(group.id), flash: .success(words.groupsCreated)))
        } catch {
            let alert = AlertViewModel(
                title: words.groupsCreateFailed,
                message: StorageMessage.text(for: error, otherwise: words.groupsSavingFailed, words: words))
            return .failed(GroupsViewModel(groups: [], context: context, name: name, alert: alert), .storage)
        }
    }

    static func unavailable(_ error: any Error, words: Words) -> AlertViewModel {
        AlertViewModel(
            title: words.groupsLoadingFailed,
            message: StorageMessage.text(for: error, otherwise: words.groupsReadingGroupsFailed, words: words))
    }

}

/// One group in the list: its name (a link to its page) and "3 members · you host".
public struct GroupRowViewModel: Sendable, Equatable, Encodable {
    public let name: String
    public let url: String
    public let detail: String

    init(_ summary: GroupSummary, words: Words) {
        name = words.isolated(summary.group.name)
        url = Paths.group.url(summary.group.id)
        detail =
            summary.isHost ? words.groupsMemberCountHost(summary.members) : words.groupsMemberCount(summary.members)
    }
}
