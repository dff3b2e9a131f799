import Foundation
import SanghaCore

/// `/groups`: the person's groups and the form that creates one.
public struct GroupsViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading = "Groups"
    public let groups: [GroupRowViewModel]
    public let hasGroups: Bool
    /// Said when the person is in no group.
    public let emptyText: String?
    public let createHeading = "Create a group"
    public let actionURL: String = Paths.groups.url
    public let name: FormFieldViewModel
    public let submitLabel = "Create group"
    public let alert: AlertViewModel?

    public init(
        groups: [GroupSummary], context: PageContext, name: String = "", nameError: String? = nil,
        alert: AlertViewModel? = nil
    ) {
        self.layout = LayoutViewModel(title: "Groups", section: .groups, context: context)
        self.groups = groups.map(GroupRowViewModel.init)
        hasGroups = !groups.isEmpty
        emptyText =
            groups.isEmpty && alert == nil
            ? "You are in no group yet. Create one, or open an invitation link a host sent you." : nil
        self.name = FormFieldViewModel(
            names: FieldNames(name: "name"), label: "Name", value: name, error: nameError,
            maxLength: SittingGroup.nameLengthLimit)
        self.alert = alert
    }

    public static func load(groups: any GroupRepository, context: PageContext) async -> LoadOutcome<GroupsViewModel> {
        do {
            return .page(GroupsViewModel(groups: try await groups.list(), context: context))
        } catch {
            return .partial(
                GroupsViewModel(groups: [], context: context, alert: unavailable(error)), .storage)
        }
    }

    /// "Create group": the new group's page, or the form again with why not.
    public static func create(name: String, groups: any GroupRepository, context: PageContext) async
        -> SubmitOutcome<GroupsViewModel>
    {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = SittingGroup.validateName(trimmed) {
            let list = (try? await groups.list()) ?? []
            return .invalid(GroupsViewModel(groups: list, context: context, name: name, nameError: problem))
        }
        do {
            let group = try await groups.create(name: trimmed, at: context.now)
            return .redirect(Redirect(to: Paths.group.url(group.id), flash: .success("Group created.")))
        } catch {
            let alert = AlertViewModel(
                title: "Could not create the group.",
                message: StorageMessage.text(for: error, otherwise: "Saving failed. Please try again."))
            return .failed(GroupsViewModel(groups: [], context: context, name: name, alert: alert), .storage)
        }
    }

    static func unavailable(_ error: any Error) -> AlertViewModel {
        AlertViewModel(
            title: "Loading failed.",
            message: StorageMessage.text(for: error, otherwise: "Reading the groups failed. Please try again."))
    }
}

/// One group in the list: its name (a link to its page) and "3 members · you host".
public struct GroupRowViewModel: Sendable, Equatable, Encodable {
    public let name: String
    public let url: String
    public let detail: String

    init(_ summary: GroupSummary) {
        name = summary.group.name
        url = Paths.group.url(summary.group.id)
        detail = CountText.of(summary.members, "member") + (summary.isHost ? " · you host" : "")
    }
}
