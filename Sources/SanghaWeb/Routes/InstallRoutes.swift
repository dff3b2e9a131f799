import Hummingbird
import SanghaViewModels

/// What makes Sangha an app on a phone: the manifest (`/manifest.webmanifest`), the service
/// worker (`/service-worker.js`, which keeps the static files and the pages opened, and sends
/// the sits kept on the device), and the page it shows offline (`/offline`). Anyone may fetch
/// them; none says who is signed in.
struct InstallRoutes {
    let files: StaticFiles
    let renderer: PageRenderer
    /// `--dev` serves no worker: it would keep the files a developer is editing.
    let development: Bool

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        let manifest = ByteBuffer(string: files.manifest)
        let worker = ByteBuffer(string: files.serviceWorker)
        router.get(Paths.manifest) { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/manifest+json; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: manifest))
        }
        router.get(Paths.serviceWorker) { _, _ -> Response in
            guard !development else {
                throw HTTPError(.notFound, message: "sangha serve --dev serves no service worker.")
            }
            // Revalidated on every check: a new build's worker is installed at once.
            return Response(
                status: .ok,
                headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: worker))
        }
        router.get(Paths.offline) { request, context in
            try renderer.response(OfflineViewModel(context: context.page), for: request)
        }
    }
}
