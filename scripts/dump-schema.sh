#!/bin/sh
# Prints the schema of a database in a stable, comparable form: no data,
# no comments, no AUTO_INCREMENT counters, tables in name order.  Used to
# write db/schema.sql after adding a migration, and by
# tests/integration/test_migrate.sh to check the migrations produce it.
#   scripts/dump-schema.sh [mariadb-dump options] DBNAME
set -eu
mariadb-dump --no-defaults --no-data --skip-comments --skip-dump-date \
    --skip-add-drop-table --skip-set-charset --compact "$@" |
    sed -e 's/ AUTO_INCREMENT=[0-9]*//' -e '/^\/\*![0-9]* SET /d' \
        -e '/^SET /d' -e '/enable the sandbox mode/d'
