import Foundation
import SanghaCore

/// The profiles page: each profile with its duration, and a form to create one by name.
public struct ProfilesListViewModel: Sendable, Equatable, Encodable {
    /// In English; the page says them in its language.
    public static let noProfilesMessage = Words.english.profilesNoneYet
    public static let storageFailureMessage = Words.english.profilesCouldNotRead

    public let layout: LayoutViewModel
    /// "Profiles".
    public let heading: String
    /// "New profile", over the form.
    public let newHeading: String
    public let rows: [ProfileRowViewModel]
    public let hasRows: Bool
    public let emptyMessage: String?
    public let errorMessage: String?
    public let createURL: String = Paths.profiles.url
    public let createLabel: String
    /// `/profiles/export.json`, once there is a profile.
    public let exportLink: LinkViewModel?
    public let nameField: FormFieldViewModel
    /// Previous and Next when there are more profiles than a page holds.
    public let paging: PagingViewModel?

    /// Page `page` (from 1), showing `profiles` of `total` (by default, all of them);
    /// `profiles` nil: they could not be read, for `failure`.
    public init(
        profiles: [Profile]?,
        total: Int? = nil,
        page: Int = 1,
        context: PageContext,
        name: String = "",
        nameError: String? = nil,
        failure: (any Error)? = nil
    ) {
        let words = context.words
        layout = LayoutViewModel(
            title: page > 1 ? words.profilesTitlePage(page: words.number(page)) : words.profilesTitle,
            section: .profiles, context: context)
        (heading, newHeading, createLabel) = (words.profilesTitle, words.profilesNew, words.profilesCreate)
        rows = (profiles ?? []).map { ProfileRowViewModel(profile: $0, words: words) }
        hasRows = !rows.isEmpty
        exportLink = rows.isEmpty ? nil : LinkViewModel(url: Paths.profilesExport.url, label: words.profilesExport)
        emptyMessage = profiles?.isEmpty == true ? words.profilesNoneYet : nil
        errorMessage =
            profiles == nil
            ? (StorageMessage.isUnreachable(failure) ? words.storageUnreachable : words.profilesCouldNotRead)
            : nil
        nameField = FormFieldViewModel(
            names: FieldNames(name: "name"),
            label: words.profilesName,
            value: name,
            error: nameError,
            maxLength: Profile.nameLengthLimit
        )
        paging = PagingViewModel(
            page: page, pageCount: PagingViewModel.pageCount(rows: total ?? profiles?.count ?? 0),
            path: Paths.profiles.url, words: words)
    }

    /// Page `page` of the list (50 by name); past the last page, not found (the first always
    /// exists). When it cannot be read, the page with why (and the form to create one) as a
    /// failure (503).
    public static func load(page: Int = 1, from repository: any ProfileRepository, context: PageContext) async
        -> LoadOutcome<ProfilesListViewModel>
    {
        do {
            guard let offset = PagingViewModel.offset(page: page) else { return .notFound }
            let found = try await repository.list(limit: PagingViewModel.pageSize, offset: offset)
            guard page <= PagingViewModel.pageCount(rows: found.total) else { return .notFound }
            return .page(
                ProfilesListViewModel(profiles: found.profiles, total: found.total, page: page, context: context))
        } catch {
            return .partial(ProfilesListViewModel(profiles: nil, context: context, failure: error), .storage)
        }
    }

    /// The first page, shown again under a form that was not accepted.
    static func firstPage(of repository: any ProfileRepository) async -> ProfileListPage? {
        try? await repository.list(limit: PagingViewModel.pageSize, offset: 0)
    }

    /// Creates a new profile (07:30, Warm Up and Cool Down off) named `name`, and opens its
    /// editor; a name that breaks a rule, or storage that fails, shows the list again with the
    /// name kept.
    public static func create(name rawName: String?, in repository: any ProfileRepository, context: PageContext)
        async -> SubmitOutcome<ProfilesListViewModel>
    {
        let context = context.withoutFlash
        let words = context.words
        let name = (rawName ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if let message = Profile.validateName(name, words: words) {
            let first = await firstPage(of: repository)
            return .invalid(
                ProfilesListViewModel(
                    profiles: first?.profiles, total: first?.total, context: context, name: rawName ?? "",
                    nameError: message))
        }
        do {
            let profile = try await repository.create(.new(named: name))
            return .redirect(
                Redirect(to: Paths.profile.url(profile.id), flash: .success(words.profilesCreated(name: profile.name))))
        } catch {
            let first = await firstPage(of: repository)
            var failed = context
            failed.flash = .error(title: words.profilesCouldNotCreate(name: name), message: words.commonTryAgain)
            return .failed(
                ProfilesListViewModel(
                    profiles: first?.profiles, total: first?.total, context: failed, name: rawName ?? ""),
                .storage)
        }
    }

    /// Deletes a profile; either way back to the list with a flash in `words`' language.
    public static func delete(id: Int, in repository: any ProfileRepository, words: Words) async
        -> Redirect
    {
        let name = (try? await repository.get(id: id))?.name
        do {
            guard try await repository.delete(id: id), let name else {
                return Redirect(
                    to: Paths.profiles.url,
                    flash: .error(title: words.profilesCouldNotDelete, message: words.profilesNotFound))
            }
            return Redirect(to: Paths.profiles.url, flash: .success(words.profilesDeleted(name: name)))
        } catch {
            return Redirect(
                to: Paths.profiles.url,
                flash: .error(
                    title: name.map { words.profilesCouldNotDeleteNamed(name: $0) } ?? words.profilesCouldNotDelete,
                    message: words.commonTryAgain))
        }
    }
}
