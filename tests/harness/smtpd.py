# A real SMTP server on loopback for the tests (tests/harness/smtpd.sh
# starts it): aiosmtpd from Debian (python3-aiosmtpd).  Each message it
# accepts is written to DIR/N.eml as received and DIR/N.env holds its
# envelope and session: "from=", "to=", "tls=0|1", "auth=USER".
#   python3 smtpd.py DIR MODE
# MODE: accept; refuse (RCPT answered 550); hang (RCPT never answered);
# tls (STARTTLS required, with DIR/cert.pem and DIR/key.pem, then AUTH
# as user "mauto" with the password "s3cret-pw").  The port it listens
# on is written to DIR/port once it accepts.
import asyncio
import os
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

directory, mode = sys.argv[1], sys.argv[2]


class Handler:
    count = 0

    async def handle_RCPT(self, server, session, envelope, address, options):
        if mode == "refuse":
            return "550 5.1.1 <%s>: Recipient address rejected" % address
        if mode == "hang":
            await asyncio.sleep(3600)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        Handler.count += 1
        base = os.path.join(directory, str(Handler.count))
        with open(base + ".env.tmp", "w") as f:
            f.write("from=%s\n" % envelope.mail_from)
            for to in envelope.rcpt_tos:
                f.write("to=%s\n" % to)
            f.write("tls=%d\n" % (session.ssl is not None))
            login = session.auth_data.login if session.auth_data else None
            f.write("auth=%s\n" % (login.decode() if login else ""))
        with open(base + ".eml", "wb") as f:
            f.write(envelope.original_content)
        os.rename(base + ".env.tmp", base + ".env")
        return "250 2.0.0 Ok: queued as test%d" % Handler.count


def authenticator(server, session, envelope, mechanism, data):
    ok = (isinstance(data, LoginPassword) and data.login == b"mauto" and
          data.password == b"s3cret-pw")
    return AuthResult(success=ok, auth_data=data if ok else None)


def factory():
    kw = {}
    if mode == "tls":
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(os.path.join(directory, "cert.pem"),
                            os.path.join(directory, "key.pem"))
        kw = dict(tls_context=ctx, require_starttls=True, auth_required=True,
                  authenticator=authenticator)
    return SMTP(Handler(), hostname="smtp.test", **kw)


loop = asyncio.new_event_loop()
asyncio.set_event_loop(loop)
server = loop.run_until_complete(
    loop.create_server(factory, host="127.0.0.1", port=0))
port = server.sockets[0].getsockname()[1]
with open(os.path.join(directory, "port.tmp"), "w") as f:
    f.write("%d\n" % port)
os.rename(os.path.join(directory, "port.tmp"), os.path.join(directory, "port"))
loop.run_forever()
