"""A small stand-in of Mozilla's push server (autopush), on loopback, for Firefox's
`dom.push.serverURL`: the browser's side speaks its WebSocket protocol (`hello`, `register`,
`unregister`, `ack`, pings), and Sangha's side posts to the endpoints it hands out
(`http://127.0.0.1:PORT/push/CHANNEL`), whose bodies it forwards to the browser as
`notification`s, which the browser decrypts and shows itself. It answers Sangha 201 once the
browser is connected, 410 for a channel it does not know.

Runs in a thread of its own (an asyncio loop for the WebSocket, a threading HTTP server for the
posts); `stop()` ends both.
"""
import asyncio
import base64
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from websockets.asyncio.server import serve


class PushServer:
    def __init__(self):
        self.hello = threading.Event()
        self.registered = threading.Event()
        self.acked = []
        self.posts = []
        self.channels = {}  # channelID -> the browser's connection
        self._loop = asyncio.new_event_loop()
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._started.wait(10)
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.http_port = self.http.server_address[1]
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    @property
    def server_url(self):
        return f"ws://127.0.0.1:{self.ws_port}/"

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.http_port}"

    def _run(self):
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._listen())
        self._loop.run_forever()

    async def _listen(self):
        self._server = await serve(self._connection, "127.0.0.1", 0)
        self.ws_port = self._server.sockets[0].getsockname()[1]
        self._started.set()

    async def _connection(self, websocket):
        async for text in websocket:
            message = json.loads(text)
            kind = message.get("messageType")
            if kind == "hello":
                await websocket.send(json.dumps({
                    "messageType": "hello", "uaid": message.get("uaid") or uuid.uuid4().hex, "status": 200,
                    "use_webpush": True, "broadcasts": {}}))
                for channel in message.get("channelIDs") or []:
                    self.channels[channel] = websocket
                self.hello.set()
            elif kind == "register":
                channel = message["channelID"]
                self.channels[channel] = websocket
                await websocket.send(json.dumps({
                    "messageType": "register", "channelID": channel, "status": 200,
                    "pushEndpoint": f"{self.origin}/push/{channel}"}))
                self.registered.set()
            elif kind == "unregister":
                self.channels.pop(message.get("channelID"), None)
                await websocket.send(json.dumps({
                    "messageType": "unregister", "channelID": message.get("channelID"), "status": 200}))
            elif kind == "ack":
                self.acked.extend(message.get("updates") or [])
            else:
                await websocket.send("{}")  # a ping

    def _forward(self, channel, body, headers):
        """Hands a post's body to the browser holding `channel`; False when none does."""
        websocket = self.channels.get(channel)
        if websocket is None:
            return False
        notification = {
            "messageType": "notification", "channelID": channel, "version": uuid.uuid4().hex,
            "data": base64.urlsafe_b64encode(body).decode().rstrip("="),
            "headers": {"encoding": headers.get("Content-Encoding", "aes128gcm")}}
        future = asyncio.run_coroutine_threadsafe(websocket.send(json.dumps(notification)), self._loop)
        future.result(10)
        return True

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                channel = self.path.rsplit("/", 1)[-1]
                server.posts.append({"channel": channel, "headers": dict(self.headers), "body": body})
                status = 201 if server._forward(channel, body, self.headers) else 410
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *arguments):
                pass

        return Handler

    def stop(self):
        self.http.shutdown()
        self.http.server_close()

        async def close():
            self._server.close()
        asyncio.run_coroutine_threadsafe(close(), self._loop).result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
