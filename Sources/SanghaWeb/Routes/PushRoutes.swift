import Foundation
import Hummingbird
import SanghaCore
import SanghaPush
import SanghaViewModels

/// Notifications (DESIGN §17): the key browsers subscribe with (`GET /push/key`, for anyone), a
/// device's subscription posted by Settings' script (`POST /push/subscriptions`, 201), "Remove"
/// beside a device, and the three choices. Without `--push-contact` each is 404.
struct PushRoutes: AreaRoutes {
    let services: RowServices

    static func off(_ words: Words) -> String { words.notificationsOff }

    /// The subscription as the script posts it (form fields, base64url keys).
    struct SubscriptionInput: Decodable, Sendable {
        var endpoint: String?
        var p256dh: String?
        var auth: String?
    }

    static let rows: [PageRow] = [
        .post(Paths.pushSubscriptions, form: SubscriptionInput.self, notFound: { words, _ in off(words) }) { asked in
            guard let push = asked.dependencies.push else { throw HTTPError(.notFound, message: off(asked.page.words)) }
            let person = try asked.person()
            let checked = push.endpoints.check(
                endpoint: asked.input.endpoint ?? "", p256dh: asked.input.p256dh ?? "", auth: asked.input.auth ?? "")
            switch checked {
            case .failure(let refusal):
                return NotificationsSectionViewModel.Subscribed.refused(
                    Self.refusal(refusal).message(in: asked.page.words))
            case .success(let subscription):
                let device = PushDevice(
                    person: person.id, endpoint: subscription.endpoint.absoluteString, p256dh: subscription.p256dh,
                    auth: subscription.auth, name: PushDevice.name(userAgent: asked.request.headers[.userAgent]),
                    createdAt: asked.page.now, session: asked.context.signInKey)
                return await NotificationsSectionViewModel.subscribe(
                    device, push: push.repository, words: asked.page.words)
            }
        },
        .post(Paths.removePushDevice, notFound: { $0.notificationsNoSuchDevice }) { asked in
            guard let push = asked.dependencies.push else { throw HTTPError(.notFound, message: off(asked.page.words)) }
            return await NotificationsSectionViewModel.remove(
                device: asked.values, of: try asked.person(), push: push.repository, words: asked.page.words)
        },
        .post(
            Paths.notificationChoices, form: NotificationsSectionViewModel.ChoicesInput.self,
            notFound: { words, _ in off(words) }
        ) { asked in
            guard let push = asked.dependencies.push else { throw HTTPError(.notFound, message: off(asked.page.words)) }
            return await NotificationsSectionViewModel.choose(
                asked.input, person: try asked.person(), push: push.repository, words: asked.page.words)
        },
    ]

    /// Anyone may read the key: it is public, and the browser needs it before it subscribes.
    func addPublicRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.pushKey) { [dependencies] _, context -> Response in
            guard let push = dependencies.push else {
                throw HTTPError(.notFound, message: Self.off(context.page.words))
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(string: push.publicKey)))
        }
    }

    static func refusal(_ refusal: PushEndpoints.Refusal) -> NotificationsSectionViewModel.Refusal {
        switch refusal {
        case .noEndpoint: .noEndpoint
        case .malformedEndpoint: .malformedEndpoint
        case .notHTTPS: .notHTTPS
        case .unknownService: .unknownService
        case .badKey: .badKey
        case .badAuth: .badAuth
        }
    }
}
