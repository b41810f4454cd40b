/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * script.h - a packetdrill script as a tree (docs/conformance.md): the
 * command-line options it carries, its init and cleanup commands, and its
 * events, each at a time: a packet injected (<) or expected (>), a socket
 * call with its arguments and the result it must return, a shell command
 * (`...`) or a code block (%{ ... }%).
 *
 * The language is packetdrill's (google/packetdrill, lexer.l and
 * parser.y, read for the facts); this parser is netsim's own. It keeps
 * what the script says, not what netsim can run of it: the interpreter
 * (drill/run.c) decides that, and says "unsupported" for the rest.
 */
#ifndef NETSIM_DRILL_SCRIPT_H
#define NETSIM_DRILL_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>

/* ---- times, in microseconds as packetdrill keeps them ---- */
enum drill_time_kind {
    DT_ABS,                       /* 0.100 */
    DT_REL,                       /* +0.1: after the previous event */
    DT_ANY,                       /* *: an outbound packet at any time */
    DT_ABS_RANGE,                 /* 0.1~0.2 */
    DT_REL_RANGE,                 /* +0.1~+0.2 */
};

/* ---- syscall arguments and results ---- */
enum drill_expr_kind {
    DE_ELLIPSIS,                  /* ...: anything */
    DE_INT,                       /* 3, -1, 0x10 */
    DE_WORD,                      /* SOCK_STREAM, IPPROTO_TCP */
    DE_STRING,                    /* "abc" (kids: a concatenation's parts) */
    DE_LIST,                      /* [1], [] */
    DE_STRUCT,                    /* {sa_family=AF_INET, ...}, {...} */
    DE_OR,                        /* O_RDWR|O_NONBLOCK: kids[0] | kids[1] */
    DE_ASSIGN,                    /* name=value (str: name, kids[0]: value) */
    DE_CALL,                      /* htons(8080), inet_addr("1.2.3.4"), msg_iov(1) */
};

struct drill_expr {
    enum drill_expr_kind kind;
    int64_t num;                  /* DE_INT */
    char *str;                    /* DE_WORD, DE_STRING, DE_ASSIGN's name, DE_CALL's function */
    bool str_more;                /* "abc"...: a prefix */
    struct drill_expr **kids;
    int nkids;
};

/* ---- packets ---- */
enum { DP_TCP, DP_UDP, DP_ICMP };
/* TCP flags as letters: F S R P . E W U; '.' is ACK */
enum {
    DF_FIN = 1, DF_SYN = 2, DF_RST = 4, DF_PSH = 8, DF_ACK = 16, DF_URG = 32, DF_ECE = 64, DF_CWR = 128, DF_AE = 256,
};
/* the IP ECN field to check or set; DE_NONE: not given */
enum { DECN_UNSET = -1, DECN_NOT_ECT = 0, DECN_ECT1 = 1, DECN_ECT0 = 2, DECN_CE = 3, DECN_ECT01 = 4 };

enum drill_opt_kind {
    DO_NOP, DO_EOL, DO_MSS, DO_WSCALE, DO_SACKOK, DO_SACK, DO_TS, DO_FO, DO_FOEXP, DO_MD5, DO_ACCECN,
};
#define DRILL_MAX_SACK 4
struct drill_opt {
    enum drill_opt_kind kind;
    uint32_t a, b;                /* mss: a; wscale: a; TS: val a, ecr b */
    int nsack;
    uint32_t sack[DRILL_MAX_SACK][2];
    char *blob;                   /* FO cookie, md5 key: as written */
};

#define DRILL_MAX_OPTS 16
struct drill_packet {
    bool inbound;                 /* <: the interpreter sends it; >: netsim must */
    int proto;                    /* DP_* */
    int ecn;                      /* DECN_* */
    int tos;                      /* tos 0x..: -1 none */
    int ip_version;               /* 0: the script's default; 4, 6: `ipv4 A > B:` given */
    uint16_t sport, dport;        /* 0: the connection's */
    uint16_t flags;               /* DF_* */
    uint32_t seq, end;            /* seq:end(len) */
    uint32_t len;
    bool has_ack;
    uint32_t ack;
    int32_t win;                  /* -1: not given */
    int32_t urg;                  /* -1: not given */
    bool opts_given;              /* <...> written (empty: none) */
    bool opts_any;                /* <...>: not checked */
    int nopts;
    struct drill_opt opts[DRILL_MAX_OPTS];
    char *icmp_type, *icmp_code;  /* DP_ICMP */
};

struct drill_call {
    char *name;
    struct drill_expr **args;
    int nargs;
    struct drill_expr *ret;       /* = value */
    char *err;                    /* EINPROGRESS, or NULL */
    char *note;                   /* (Operation now in progress), or NULL */
    bool blocking;                /* ... END call(): returns at END */
    int64_t end_us;
};

enum drill_event_kind { DV_PACKET, DV_CALL, DV_COMMAND, DV_CODE };

struct drill_event {
    int line;
    enum drill_event_kind kind;
    enum drill_time_kind tkind;
    int64_t t_us, t_end_us;       /* t_end_us: a range's end */
    struct drill_packet pkt;      /* DV_PACKET */
    struct drill_call call;       /* DV_CALL */
    char *text;                   /* DV_COMMAND, DV_CODE: the text inside */
};

struct drill_option {             /* --name[=value] at the top of a script */
    char *name, *value;
};

struct drill_script {
    char *path;
    struct drill_option *opts;
    int nopts;
    char *init_cmd, *cleanup_cmd; /* untimed `...` before and after the events */
    int init_line, cleanup_line;
    struct drill_event *ev;
    int nev;
};

/* Parses the text of a script; path is for messages. Returns the tree,
 * or NULL with "path:line: what was expected" in err (the first error
 * stops the parse, as packetdrill's does). */
struct drill_script *drill_parse(const char *path, const char *text, char *err, int errlen);
/* drill_parse of a file's contents. */
struct drill_script *drill_parse_file(const char *path, char *err, int errlen);
void drill_script_free(struct drill_script *s);
void drill_expr_free(struct drill_expr *e);
/* The expression as the script wrote it (normalised spacing), into buf. */
void drill_expr_format(const struct drill_expr *e, char *buf, int len);

#endif
