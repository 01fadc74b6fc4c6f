#!/usr/bin/env bash
# Makes the TLS fixtures of the local service (test/service/fixtures/tls): a root CA of its own, a server certificate
# for 127.0.0.1 signed by it, and a client certificate from a second CA (PEM, an encrypted PEM key and PKCS#12).
# Valid for 100 years; run once, commit the result. Needs openssl 3.
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/test/service/fixtures/tls"
mkdir -p "$out"
cd "$out"
days=36500
passphrase=promptreel-test-passphrase

openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days "$days" -keyout ca.key -out ca.pem \
  -subj "/O=Promptreel Tests/CN=Promptreel Test Root CA"
openssl req -newkey rsa:2048 -nodes -sha256 -keyout server.key -out server.csr \
  -subj "/O=Promptreel Tests/CN=127.0.0.1"
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days "$days" -sha256 -extfile server.ext -out server.pem

openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days "$days" -keyout client-ca.key -out client-ca.pem \
  -subj "/O=Promptreel Tests/CN=Promptreel Test Client CA"
openssl req -newkey rsa:2048 -nodes -sha256 -keyout client.key -out client.csr \
  -subj "/O=Promptreel Tests/CN=promptreel-test-client"
printf 'extendedKeyUsage=clientAuth\n' > client.ext
openssl x509 -req -in client.csr -CA client-ca.pem -CAkey client-ca.key -CAcreateserial -days "$days" -sha256 -extfile client.ext -out client.pem
openssl pkey -in client.key -aes256 -passout "pass:$passphrase" -out client-encrypted.key
openssl pkcs12 -export -in client.pem -inkey client.key -passout "pass:$passphrase" -out client.p12

rm -f ./*.csr ./*.ext ./*.srl ca.key client-ca.key
