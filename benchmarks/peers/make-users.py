#!/usr/bin/env python3
"""Writes the sample LDIF the peer servers load.

usage: make-users.py N OUT.ldif

dc=example,dc=com, ou=People under it, and N inetOrgPerson entries uid=user.0 .. uid=user.(N-1),
ou=People,dc=example,dc=com (cn, sn, givenName, mail, userPassword). Every user's password is
"password", stored as {SSHA}: base64(SHA-1(password + salt) + salt) with a random 8-byte salt per user,
a scheme slapd and OpenDJ both verify as imported. 100,000 users take a few seconds.
Exit: 0 written; 2 wrong arguments.
"""
import base64
import hashlib
import os
import sys

BASE = "dc=example,dc=com"
PASSWORD = b"password"


def ssha(password):
    salt = os.urandom(8)
    return "{SSHA}" + base64.b64encode(hashlib.sha1(password + salt).digest() + salt).decode("ascii")


def entries(n):
    yield f"dn: {BASE}\nobjectClass: top\nobjectClass: domain\ndc: example\n"
    yield f"dn: ou=People,{BASE}\nobjectClass: top\nobjectClass: organizationalUnit\nou: People\n"
    for i in range(n):
        uid = f"user.{i}"
        yield (f"dn: uid={uid},ou=People,{BASE}\n"
               "objectClass: top\nobjectClass: person\nobjectClass: organizationalPerson\n"
               "objectClass: inetOrgPerson\n"
               f"uid: {uid}\ncn: User {i}\nsn: {i}\ngivenName: User\nmail: {uid}@example.com\n"
               f"userPassword: {ssha(PASSWORD)}\n")


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) != 3 or not argv[1].isdigit():
        print(__doc__.strip(), file=sys.stderr)
        return 2
    n, out = int(argv[1]), argv[2]
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(entries(n)))
    os.replace(tmp, out)  # a half-written file never passes for a finished one
    print(f"wrote {out}: {n} users, password 'password' as {{SSHA}}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
