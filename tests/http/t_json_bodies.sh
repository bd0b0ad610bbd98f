#!/usr/bin/env bash
# name: the asset cases again with every form body sent as a JSON object under application/json: the same answers
# docs/behaviour.md §0 "Request bodies": an operation of named parameters
# reads a JSON object body as the same parameters as a form body.  This
# runs the cases of the asset operations of named parameters (landing
# page templates, emails v1, smart lists, smart campaigns, folders and
# their tokens; not the v2 emails, whose body is a JSON document) on a
# stack of their own, with
# MAUTO_TEST_JSON_BODIES=1: run.sh turns each urlencoded body into a JSON
# object of its parameters (a repeated name as an array) and expects the
# answers the case expects of the form.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/env.sh
. "$here/../harness/env.sh"

if [ "${MAUTO_TEST_FRONT:-nginx}" != nginx ] || [ -z "${MAUTO_TEST_DB_ENV:-}" ]; then
	echo "needs this run's database server (MAUTO_TEST_DB_ENV) behind nginx"
	exit 77
fi
dbenv=$MAUTO_TEST_DB_ENV
(
	# A run of its own: a new database on this run's server, and a
	# template, clients and tokens of that run.
	for v in $(compgen -e | grep -E '^MAUTO_TEST_'); do
		unset "$v"
	done
	# shellcheck disable=SC1090
	. "$dbenv"
	export MAUTO_TEST_JSON_BODIES=1
	"$here/run.sh" '40[0-9]-*.case' '45[0-9]-*.case' '5[0-9][0-9]-*.case' \
	    '6[0-2][0-9]-*.case'
)
