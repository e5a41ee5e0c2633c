#!/usr/bin/env python3
"""A study server that hands out presigned URLs, for UploadTests (docs/upload.md, "The study
server's contract"), in front of the tests' moto S3 server.

POST /uploads with "Authorization: Bearer <token>" and {name, contentLength, contentMd5,
contentType} answers {id, url, expires}: a URL made by boto3's generate_presigned_url for
put_object of the name in the bucket, signing Content-MD5 and Content-Type. POST
/uploads/<id>/complete records the call. A wrong token gets 401. Every request and complete call
is appended to --record as one JSON line.

--expire-first: the first grant's expires is in the past (the uploader must ask again).
--refuse-first-put: the first grant's URL is this server's /expired, which answers the PUT with
S3's 403 AccessDenied "Request has expired" (the uploader must ask again).
"""
import argparse
import datetime
import json
import sys
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import boto3
from botocore.config import Config


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--moto-port", required=True)
    parser.add_argument("--bucket", required=True)
    parser.add_argument("--access-key", required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--expire-first", action="store_true")
    parser.add_argument("--refuse-first-put", action="store_true")
    # The port the URLs handed out name (a fault proxy in front of moto); moto's own by default.
    parser.add_argument("--url-port")
    args = parser.parse_args()
    s3 = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{args.moto_port}", region_name="us-east-1",
                      aws_access_key_id=args.access_key, aws_secret_access_key=args.secret,
                      config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
    signer = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{args.url_port or args.moto_port}", region_name="us-east-1",
                          aws_access_key_id=args.access_key, aws_secret_access_key=args.secret,
                          config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
    grants = {"count": 0}

    def record(entry):
        with open(args.record, "a") as output:
            output.write(json.dumps(entry) + "\n")

    class Handler(BaseHTTPRequestHandler):
        def answer(self, status, document):
            body = json.dumps(document).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def body(self):
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def do_POST(self):
            data = self.body()
            if self.headers.get("Authorization") != f"Bearer {args.token}":
                record({"call": "refused", "path": self.path})
                return self.answer(401, {"message": "The token is not valid."})
            parts = self.path.strip("/").split("/")
            if parts == ["uploads"]:
                request = json.loads(data)
                grants["count"] += 1
                upload_id = str(uuid.uuid4())
                lifetime = 600
                url = signer.generate_presigned_url("put_object", ExpiresIn=lifetime, Params={
                    "Bucket": args.bucket, "Key": request["name"],
                    "ContentMD5": request["contentMd5"], "ContentType": request["contentType"]})
                if args.expire_first and grants["count"] == 1:
                    lifetime = -60
                if args.refuse_first_put and grants["count"] == 1:
                    url = f"http://127.0.0.1:{args.port}/expired"
                expires = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=lifetime)
                record({"call": "request", "id": upload_id, **request})
                return self.answer(201, {"id": upload_id, "url": url, "expires": expires.strftime("%Y-%m-%dT%H:%M:%SZ")})
            if len(parts) == 3 and parts[0] == "uploads" and parts[2] == "complete":
                record({"call": "complete", "id": parts[1]})
                return self.answer(200, {"id": parts[1], "status": "succeeded"})
            return self.answer(404, {"message": "no such path"})

        def do_PUT(self):
            self.body()
            record({"call": "expired-put"})
            body = (b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code>'
                    b'<Message>Request has expired</Message></Error>')
            self.send_response(403)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *arguments):
            sys.stderr.write("presign_server: " + format % arguments + "\n")

    ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    sys.exit(main())
