#!/usr/bin/env python3
"""Holds N idle LDAP connections open against a server, for measuring what an idle crowd costs.

usage: benchmarks/idle-crowd.py N SECONDS PORT [--bind-as OFFSET:COUNT | --anonymous]

  N            connections to open on 127.0.0.1:PORT (raise the open-files limit first: ulimit -n)
  SECONDS      how long to hold them after they are all open, then close them and exit
  --bind-as O:C  each connection i binds as uid=user.(O + i % C),ou=People,dc=example,dc=com with the
               sample data's password, and must get success
  --anonymous  each connection binds anonymously (empty DN and password)
  (neither)    the connections never send anything

Prints "open N" once every connection is open (and bound), so that a script can wait for that line.
"""
import socket
import sys
import time


def tlv(tag, body):
    n = len(body)
    if n < 128:
        return bytes([tag, n]) + body
    length = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(length)]) + length + body


def bind_request(dn, password):
    bind = tlv(0x60, tlv(0x02, b"\x03") + tlv(0x04, dn) + tlv(0x80, password))
    return tlv(0x30, tlv(0x02, b"\x01") + bind)


def main(argv):
    if len(argv) not in (3, 4, 5) or argv[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    n, seconds, port = int(argv[0]), int(argv[1]), int(argv[2])
    mode = argv[3] if len(argv) > 3 else None
    offset = count = 0
    if mode == "--bind-as":
        offset, count = (int(x) for x in argv[4].split(":"))
    elif mode not in (None, "--anonymous"):
        print("unknown option " + mode, file=sys.stderr)
        return 2
    conns = []
    for i in range(n):
        c = socket.create_connection(("127.0.0.1", port))
        if mode is not None:
            if mode == "--anonymous":
                request = bind_request(b"", b"")
            else:
                dn = "uid=user.%d,ou=People,dc=example,dc=com" % (offset + i % count)
                request = bind_request(dn.encode(), b"password")
            c.sendall(request)
            response = c.recv(100)
            # BindResponse: ... ENUMERATED resultCode (0x0a 0x01 code) then matchedDN and message (empty)
            if response[-7:-4] != b"\x0a\x01\x00":
                print("bind %d failed: %s" % (i, response.hex()), file=sys.stderr)
                return 1
        conns.append(c)
    print("open", len(conns), flush=True)
    time.sleep(seconds)
    for c in conns:
        c.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
