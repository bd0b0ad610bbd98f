/*
 * The SMTP client (smtp.h), on libcurl: it is maintained, in Debian,
 * and speaks SMTP with STARTTLS, implicit TLS and AUTH, checking the
 * relay's certificate and name.  The relay's replies reach us through
 * the debug callback (CURLINFO_HEADER_IN), which is where libcurl hands
 * over the lines of a pingpong protocol; the last one before QUIT is the
 * relay's verdict on the message.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "bounds.h"
#include "mail/smtp.h"
#include "util/config.h"
#include "util/log.h"

#define ADDR_BYTES	(MAIL_ADDRESS_BYTES + 3)

static const char *const names[SMTP__MAX] = {
	[SMTP_SENT] = "sent",
	[SMTP_NO_RELAY] = "no relay",
	[SMTP_REFUSED] = "refused",
	[SMTP_UNREACHABLE] = "unreachable",
};

/* The message being read by libcurl, and the replies it saw. */
struct conv {
	const char	*p;
	size_t		 left;
	int		 code;
	char		 reply[MAIL_REPLY_BYTES + 1];
};

/* See smtp.h. */
const char *
smtp_status_name(enum smtp_status s)
{
	return (unsigned)s < SMTP__MAX ? names[s] : "?";
}

static size_t
read_cb(char *dst, size_t size, size_t nmemb, void *arg)
{
	struct conv *c = arg;
	size_t n = size * nmemb;

	if (n > c->left)
		n = c->left;
	memcpy(dst, c->p, n);
	c->p += n;
	c->left -= n;
	return n;
}

/*
 * Keeps the last reply line of the relay with its code.  221 answers
 * QUIT, after the verdict, so it is not kept; control bytes are dropped
 * (the text goes into the outbox and the logs).
 */
static int
debug_cb(CURL *h, curl_infotype type, char *data, size_t size, void *arg)
{
	struct conv *c = arg;
	size_t i, o = 0;
	int code;

	(void)h;
	if (type != CURLINFO_HEADER_IN || size < 3 ||
	    data[0] < '2' || data[0] > '5' || data[1] < '0' || data[1] > '9' ||
	    data[2] < '0' || data[2] > '9')
		return 0;
	code = (data[0] - '0') * 100 + (data[1] - '0') * 10 + (data[2] - '0');
	if (code == 221)
		return 0;
	c->code = code;
	for (i = 0; i < size && o < sizeof(c->reply) - 1; i++)
		if ((unsigned char)data[i] >= 0x20 && data[i] != 0x7f)
			c->reply[o++] = data[i];
	c->reply[o] = '\0';
	return 0;
}

static bool
curl_ready(void)
{
	static bool done, ok;

	if (!done) {
		ok = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
		done = true;
	}
	return ok;
}

/* Is rc a failure to reach or talk to the relay, not the relay's answer? */
static bool
is_transport(CURLcode rc)
{
	switch (rc) {
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_USE_SSL_FAILED:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
		return true;
	default:
		return false;
	}
}

static long
use_ssl(const struct config *cfg)
{
	if (strncmp(cfg->smtp_url, "smtps://", 8) == 0 ||
	    strcmp(cfg->smtp_starttls, "require") == 0)
		return (long)CURLUSESSL_ALL;
	if (strcmp(cfg->smtp_starttls, "try") == 0)
		return (long)CURLUSESSL_TRY;
	return (long)CURLUSESSL_NONE;
}

/* See smtp.h. */
int
smtp_send(const struct config *cfg, const char *from, const char *to,
    const char *msg, size_t len, struct smtp_result *res)
{
	struct conv c;
	struct curl_slist *rcpt = NULL;
	char errbuf[CURL_ERROR_SIZE], mfrom[ADDR_BYTES], mto[ADDR_BYTES];
	CURL *h = NULL;
	CURLcode rc;
	int r = -1;

	memset(res, 0, sizeof(*res));
	memset(&c, 0, sizeof(c));
	errbuf[0] = '\0';
	if (cfg->smtp_url == NULL) {
		res->status = SMTP_NO_RELAY;
		(void)snprintf(res->reply, sizeof(res->reply),
		    "no relay configured (smtp_url)");
		return 0;
	}
	res->status = SMTP_UNREACHABLE;
	(void)snprintf(mfrom, sizeof(mfrom), "<%s>", from);
	(void)snprintf(mto, sizeof(mto), "<%s>", to);
	if (!curl_ready() || (h = curl_easy_init()) == NULL ||
	    (rcpt = curl_slist_append(NULL, mto)) == NULL) {
		(void)snprintf(res->reply, sizeof(res->reply),
		    "libcurl could not be set up");
		log_msg(LOG_LVL_ERR, "smtp_send: %s", res->reply);
		goto out;
	}
	c.p = msg;
	c.left = len;
	if (curl_easy_setopt(h, CURLOPT_URL, cfg->smtp_url) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps") !=
	    CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_PROXY, "") != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_NOPROXY, "*") != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_TIMEOUT, (long)cfg->smtp_timeout) !=
	    CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT,
	    (long)cfg->smtp_timeout) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_USE_SSL, use_ssl(cfg)) != CURLE_OK ||
	    (cfg->smtp_ca_file != NULL &&
	    curl_easy_setopt(h, CURLOPT_CAINFO, cfg->smtp_ca_file) !=
	    CURLE_OK) ||
	    (cfg->smtp_user != NULL &&
	    (curl_easy_setopt(h, CURLOPT_USERNAME, cfg->smtp_user) !=
	    CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_PASSWORD, cfg->smtp_password != NULL ?
	    cfg->smtp_password : "") != CURLE_OK)) ||
	    curl_easy_setopt(h, CURLOPT_MAIL_FROM, mfrom) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rcpt) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len) !=
	    CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_READFUNCTION, read_cb) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_READDATA, &c) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_VERBOSE, 1L) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, debug_cb) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_DEBUGDATA, &c) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf) != CURLE_OK) {
		(void)snprintf(res->reply, sizeof(res->reply),
		    "libcurl refused an option (too old?)");
		log_msg(LOG_LVL_ERR, "smtp_send: %s", res->reply);
		goto out;
	}
	rc = curl_easy_perform(h);
	res->code = c.code;
	if (rc == CURLE_OK) {
		res->status = SMTP_SENT;
		(void)snprintf(res->reply, sizeof(res->reply), "%s", c.reply);
	} else if (!is_transport(rc) && c.code >= 400) {
		res->status = SMTP_REFUSED;
		(void)snprintf(res->reply, sizeof(res->reply), "%s", c.reply);
	} else {
		res->status = SMTP_UNREACHABLE;
		(void)snprintf(res->reply, sizeof(res->reply), "%s%s",
		    rc == CURLE_OPERATION_TIMEDOUT ? "timed out: " : "",
		    errbuf[0] != '\0' ? errbuf : curl_easy_strerror(rc));
	}
	r = 0;
out:
	curl_slist_free_all(rcpt);
	if (h != NULL)
		curl_easy_cleanup(h);
	return r;
}
