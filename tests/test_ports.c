/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_ports.c - a flow's server port (flow_server_port, sim/sim.c): the
 * tool's port or the next free one up, a port given kept, and an error at
 * the key, saying which, when the port given is taken or no port from the
 * tool's up is free.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include "sim/sock.h"
#include "tests/config_fixture.h"
#include "tests/world.h"

static const char *const two_hosts =
    "[sim]\nduration = 1ms\ninterval = 1ms\n"
    "[host a]\n[host b]\n"
    "[link l]\nends = a:eth0 b:eth0\nrate = 10gbit\n";

struct ports {
    struct sim *s;
    struct host *b;
    struct flow f;
    struct sock *socks;
};

static void ports_open(struct ports *p, uint32_t first, uint32_t last)
{
    p->s = world_build(two_hosts);
    p->b = host_find(p->s, "b");
    assert_non_null(p->b);
    p->f = (struct flow){ .id = 1, .from = host_find(p->s, "a"), .to = p->b };
    p->socks = calloc(last - first + 1, sizeof *p->socks);
    assert_non_null(p->socks);
    for (uint32_t port = first; port <= last; port++)
        sock_init(&p->socks[port - first], p->b, IPPROTO_UDP_, (uint16_t)port);
}

static void ports_close(struct ports *p)
{
    world_free(p->s);
    free(p->socks);
}

static uint16_t port_of(struct ports *p, const char *given)
{
    struct cfg_section *sec = cfg_section_ensure(world_cfg, "flow", "1");
    if (given)
        cfg_set_value(sec, "port", given);
    return flow_server_port(&p->f, sec, IPPROTO_UDP_, 5201, "test");
}

static void test_default_skips_taken_ports(void **state)
{
    (void)state;
    struct ports p;
    ports_open(&p, 5201, 5202);
    assert_int_equal(port_of(&p, NULL), 5203);
    assert_int_equal(cfg_errors(world_cfg), 0);
    ports_close(&p);
}

static void test_given_taken_port_is_an_error(void **state)
{
    (void)state;
    struct ports p;
    ports_open(&p, 5201, 5202);
    assert_int_equal(port_of(&p, "5202"), 5202);
    assert_int_equal(cfg_errors(world_cfg), 1);
    char *e = errors_text(world_cfg);
    assert_non_null(strstr(e, "[flow 1] port: port 5202 on b is taken by another flow"));
    free(e);
    ports_close(&p);
}

/* 60 335 servers hold 5201 to 65535: a default has nowhere to go, and the
 * message says so instead of blaming a port the user never gave. */
static void test_no_free_port_says_so(void **state)
{
    (void)state;
    struct ports p;
    ports_open(&p, 5201, 65535);
    port_of(&p, NULL);
    assert_int_equal(cfg_errors(world_cfg), 1);
    char *e = errors_text(world_cfg);
    assert_non_null(strstr(e, "[flow 1] port: no free port on b: other flows' servers hold every port from 5201 "
                              "to 65535; give this flow a port below 5201"));
    assert_null(strstr(e, "taken by another flow"));
    free(e);
    ports_close(&p);
}

static void test_port_below_the_tool_s_is_free(void **state)
{
    (void)state;
    struct ports p;
    ports_open(&p, 5201, 65535);
    assert_int_equal(port_of(&p, "80"), 80);
    assert_int_equal(cfg_errors(world_cfg), 0);
    ports_close(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_skips_taken_ports),
        cmocka_unit_test(test_given_taken_port_is_an_error),
        cmocka_unit_test(test_no_free_port_says_so),
        cmocka_unit_test(test_port_below_the_tool_s_is_free),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
