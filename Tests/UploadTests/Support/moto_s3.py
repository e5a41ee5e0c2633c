#!/usr/bin/env python3
"""The S3 side of UploadTests against a moto server (docs/upload.md, "Tests").

setup: with the server's first unauthenticated actions (INITIAL_NO_AUTH_ACTION_COUNT), creates an
IAM user with an access key allowed s3:* and the bucket; prints {"accessKeyID", "secretAccessKey"}.
get: writes an object's bytes to a file and prints {"etag", "size", "contentType"}.
list: prints {"keys": [...], "uploads": [...]} (objects under a prefix, unfinished multipart uploads).
dump: writes every object under a prefix to the output directory, named by its key with "/" as
"_", and prints {key: {"etag", "size", "file"}} (one Python start for a hundred objects).
digest: prints {"etag", "size", "sha256"} of an object, streamed (a 200 MiB object is not held).
"""
import argparse
import hashlib
import os
import json
import sys

import boto3


def client(service, port, key="test", secret="test"):
    return boto3.client(service, endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
                        aws_access_key_id=key, aws_secret_access_key=secret)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["setup", "get", "list", "dump", "digest"])
    parser.add_argument("--port", required=True)
    parser.add_argument("--bucket", required=True)
    parser.add_argument("--access-key")
    parser.add_argument("--secret")
    parser.add_argument("--key")
    parser.add_argument("--prefix", default="")
    parser.add_argument("--output")
    args = parser.parse_args()
    if args.command == "setup":
        iam = client("iam", args.port)
        iam.create_user(UserName="tablet")
        key = iam.create_access_key(UserName="tablet")["AccessKey"]
        iam.put_user_policy(UserName="tablet", PolicyName="s3", PolicyDocument=json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}],
        }))
        client("s3", args.port, key["AccessKeyId"], key["SecretAccessKey"]).create_bucket(Bucket=args.bucket)
        print(json.dumps({"accessKeyID": key["AccessKeyId"], "secretAccessKey": key["SecretAccessKey"]}))
        return
    s3 = client("s3", args.port, args.access_key, args.secret)
    if args.command == "get":
        answer = s3.get_object(Bucket=args.bucket, Key=args.key)
        data = answer["Body"].read()
        with open(args.output, "wb") as output:
            output.write(data)
        print(json.dumps({"etag": answer["ETag"], "size": len(data), "contentType": answer.get("ContentType", "")}))
    elif args.command == "dump":
        found = {}
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=args.bucket):
            for item in page.get("Contents", []):
                if not item["Key"].startswith(args.prefix):
                    continue
                answer = s3.get_object(Bucket=args.bucket, Key=item["Key"])
                path = os.path.join(args.output, item["Key"].replace("/", "_"))
                with open(path, "wb") as output:
                    output.write(answer["Body"].read())
                found[item["Key"]] = {"etag": answer["ETag"], "size": answer["ContentLength"], "file": path}
        print(json.dumps(found))
    elif args.command == "digest":
        answer = s3.get_object(Bucket=args.bucket, Key=args.key)
        sha256, size = hashlib.sha256(), 0
        for chunk in answer["Body"].iter_chunks(1 << 20):
            sha256.update(chunk)
            size += len(chunk)
        print(json.dumps({"etag": answer["ETag"], "size": size, "sha256": sha256.hexdigest()}))
    else:
        # Filtered here: moto's signature check refuses a Prefix with a "/" (encoded %2F).
        objects = [o for o in s3.list_objects_v2(Bucket=args.bucket).get("Contents", []) if o["Key"].startswith(args.prefix)]
        uploads = s3.list_multipart_uploads(Bucket=args.bucket).get("Uploads", [])
        print(json.dumps({"keys": [o["Key"] for o in objects], "uploads": [u["Key"] for u in uploads]}))


if __name__ == "__main__":
    sys.exit(main())
