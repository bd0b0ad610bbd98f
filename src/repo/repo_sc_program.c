/*
 * Smart campaigns in a program (repo_sc_program.h): what Clone Program
 * reads and rewrites of a program's campaigns, and what Delete Program
 * asks of them (an active campaign, one named from outside the program,
 * a campaign outside it naming the program) before it deletes them, each
 * inside the caller's transaction.  A campaign is deleted the way Delete
 * Smart Campaign deletes it (repo_smart_campaigns.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_sc_program.h"
#include "repo/repo_smart_campaigns.h"

enum sc_stmt {
	SC_STMT_IN_PROGRAM,
	SC_STMT_PROGRAM_ACTIVE,
	SC_STMT_PROGRAM_USED_OUTSIDE,
	SC_STMT_NAMED_IN_PROGRAM,
	SC_STMT_REMAP,
	SC_STMT_NAMES_PROGRAM,
	SC_STMT__MAX
};

static const char *const sql[SC_STMT__MAX] = {
	/* The campaigns of program ?, locked as they are deleted. */
	[SC_STMT_IN_PROGRAM] =
	    "SELECT id FROM smart_campaign WHERE program_id = ? ORDER BY id "
	    "FOR UPDATE",
	[SC_STMT_PROGRAM_ACTIVE] =
	    "SELECT MIN(id) FROM smart_campaign WHERE program_id = ? "
	    "AND is_active = 1",
	/*
	 * The first campaign of program ? that a flow step of a campaign
	 * standing outside that program (?) names.
	 */
	[SC_STMT_PROGRAM_USED_OUTSIDE] =
	    "SELECT MIN(c.id) " SC_VALUES_OF "JOIN smart_campaign u "
	    "ON u.id = s.campaign_id JOIN smart_campaign c ON a.value = c.id "
	    "WHERE t.data_type = 'campaign' AND c.program_id = ? "
	    "AND NOT (u.program_id <=> ?)",
	/*
	 * The first campaign outside program ? (?) whose flow (Change
	 * Program Status and the like) or own smart list (Member of Program,
	 * Program Status) names that program (?), by name or id.
	 */
	[SC_STMT_NAMES_PROGRAM] =
	    "SELECT MIN(u.id) FROM smart_campaign u JOIN program p "
	    "ON p.id = ? WHERE NOT (u.program_id <=> ?) AND (EXISTS "
	    "(SELECT 1 " SC_VALUES_OF "WHERE s.campaign_id = u.id AND "
	    "t.data_type = 'program' AND (a.value = p.name OR "
	    "a.value = CAST(p.id AS CHAR))) OR EXISTS (SELECT 1 FROM "
	    "smart_list_condition c JOIN smart_list_rule r "
	    "ON r.id = c.rule_id JOIN sl_constraint k "
	    "ON k.rule_type_id = r.rule_type_id AND k.id = c.attribute_id "
	    "WHERE r.smart_list_id = u.smart_list_id AND "
	    "k.data_type = 'program' AND "
	    "(JSON_CONTAINS(c.vals, JSON_QUOTE(p.name)) OR "
	    "JSON_CONTAINS(c.vals, JSON_QUOTE(CAST(p.id AS CHAR))))))",
	/* An Email program's send campaign is not one a clone copies. */
	[SC_STMT_NAMED_IN_PROGRAM] =
	    "SELECT id, name, description FROM smart_campaign "
	    "WHERE program_id = ? AND is_system = 0 ORDER BY id",
	/*
	 * The flow attributes of data type ? of program ?'s campaigns that
	 * name ? name ? instead.
	 */
	[SC_STMT_REMAP] =
	    "UPDATE sc_choice_attr a JOIN sc_step_choice ch "
	    "ON ch.id = a.choice_id JOIN sc_flow_step s ON s.id = ch.step_id "
	    "JOIN sc_flow_attrib t ON t.flow_type_id = s.flow_type_id "
	    "AND t.id = a.attrib_id JOIN smart_campaign c "
	    "ON c.id = s.campaign_id SET a.value = ? "
	    "WHERE t.data_type = ? AND c.program_id = ? AND a.value = ?",
};

const struct db_stmt_set repo_sc_program_sql = {
	.name = "sc_program",
	.sql = sql,
	.n = SC_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum sc_stmt s)
{
	return db_stmt(db, REPO_SC_PROGRAM, (int)s);
}

/* See repo_sc_program.h. */
int
repo_sc_in_program(struct db *db, struct arena *a, int32_t program,
    struct repo_named **out, size_t *n)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &program);
	return repo_named_select(db, stmt(db, SC_STMT_NAMED_IN_PROGRAM), in,
	    a, 100000, out, n, "repo_sc_in_program");
}

/* See repo_sc_program.h. */
int
repo_sc_remap(struct db *db, int32_t program, const char *data_type,
    const char *from, const char *to)
{
	MYSQL_BIND in[4];
	unsigned long flen = strlen(from), tlen = strlen(to);
	unsigned long dlen = strlen(data_type);

	bind_str(&in[0], to, &tlen);
	bind_str(&in[1], data_type, &dlen);
	bind_i32(&in[2], &program);
	bind_str(&in[3], from, &flen);
	return db_exec(db, stmt(db, SC_STMT_REMAP), in, "repo_sc_remap");
}

/* See repo_sc_program.h. */
int
repo_sc_program_blocker(struct db *db, int32_t program, int32_t *id,
    bool *active)
{
	int r;

	*active = false;
	if ((r = repo_program_first_id(db, stmt(db, SC_STMT_PROGRAM_ACTIVE),
	    program, 1, id, "repo_sc_program_blocker")) != 0)
		return r;
	if (*id != 0) {
		*active = true;
		return 0;
	}
	return repo_program_first_id(db, stmt(db,
	    SC_STMT_PROGRAM_USED_OUTSIDE), program, 2, id,
	    "repo_sc_program_blocker");
}

/* See repo_sc_program.h. */
int
repo_sc_names_program(struct db *db, int32_t program, int32_t *id)
{
	return repo_program_first_id(db, stmt(db, SC_STMT_NAMES_PROGRAM),
	    program, 2, id, "repo_sc_names_program");
}

/* repo_sc_delete_in_tx for one campaign of a program (db_each_id). */
static int
delete_one(struct db *db, int32_t id, void *arg)
{
	(void)arg;
	return repo_sc_delete_in_tx(db, id);
}

/* See repo_sc_program.h. */
int
repo_sc_delete_in_program(struct db *db, int32_t program)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &program);
	return db_each_id(db, stmt(db, SC_STMT_IN_PROGRAM), in, 100000,
	    delete_one, NULL, "repo_sc_delete_in_program");
}
