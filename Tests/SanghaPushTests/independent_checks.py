"""What Sangha makes, checked by others' code: http_ece (Mozilla's RFC 8188/8291 library)
decrypts each message as a browser would and refuses one with a byte flipped, and the
`cryptography` package checks each VAPID header's ES256 signature and claims (RFC 8292).

Reads {"messages": [...], "vapid": [...]} as JSON on stdin (PythonChecksTests writes it);
prints one line per check and exits 1 on the first that fails."""

import base64
import json
import sys
import time

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.exceptions import InvalidSignature


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def fail(why):
    print("FAIL", why)
    sys.exit(1)


def main():
    data = json.load(sys.stdin)
    for index, message in enumerate(data["messages"]):
        private = ec.derive_private_key(int.from_bytes(unb64(message["private"]), "big"), ec.SECP256R1())
        body = unb64(message["body"])
        auth = unb64(message["auth"])
        plain = http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm")
        if plain != unb64(message["plaintext"]):
            fail(f"message {index} decrypts to {plain!r}")
        flipped = bytearray(body)
        flipped[message["flip"]] ^= 0x01
        try:
            http_ece.decrypt(bytes(flipped), private_key=private, auth_secret=auth, version="aes128gcm")
        except Exception:
            pass
        else:
            fail(f"message {index} with byte {message['flip']} flipped was decrypted")
    print("decrypted", len(data["messages"]), "messages; each refused with a byte flipped")

    for index, check in enumerate(data["vapid"]):
        scheme, _, rest = check["header"].partition(" ")
        if scheme != "vapid":
            fail(f"header {index} is {scheme!r}, not vapid")
        fields = dict(part.strip().split("=", 1) for part in rest.split(","))
        token, key = fields["t"], unb64(fields["k"])
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
        head, claims, signature = token.split(".")
        if json.loads(unb64(head)) != {"typ": "JWT", "alg": "ES256"}:
            fail(f"token {index} header {unb64(head)!r}")
        raw = unb64(signature)
        if len(raw) != 64:
            fail(f"token {index} signature is {len(raw)} bytes, not r and s")
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        try:
            public.verify(der, (head + "." + claims).encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            fail(f"token {index} signature does not verify")
        claims = json.loads(unb64(claims))
        if claims["aud"] != check["aud"] or claims["sub"] != check["sub"]:
            fail(f"token {index} claims {claims}")
        left = claims["exp"] - time.time()
        if not (0 < left <= 12 * 3600):
            fail(f"token {index} expires in {left} s")
        if check.get("publicKey") and fields["k"] != check["publicKey"]:
            fail(f"token {index} k is not the key served at /push/key")
        tampered = (head + "." + base64.urlsafe_b64encode(json.dumps(dict(claims, aud="https://evil.example")).encode()).decode().rstrip("="))
        try:
            public.verify(der, tampered.encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            pass
        else:
            fail(f"token {index} verifies for other claims")
    print("verified", len(data["vapid"]), "VAPID headers")


main()
