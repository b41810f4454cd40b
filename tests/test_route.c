/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_route.c - next hops (sim/route.h): the shortest path, ties to the
 * first-declared link as a breadth-first search from the source finds
 * them; a one-port host routes everything it can reach through its port
 * and has no table; a router builds its table when it first routes, and
 * only then; hosts of another component are unreachable. With
 * route.multipath, every shortest path: equal-cost first hops make a
 * group, and a flow's hash picks one by the kernel's upper bounds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include "sim/route.h"
#include "tests/world.h"

static uint32_t idx(struct sim *s, const char *name)
{
    return (uint32_t)host_find(s, name)->index;
}

static const char *via(struct sim *s, const char *from, const char *to)
{
    struct nic *n = route_next(host_find(s, from), idx(s, to));
    return n ? n->name : "none";
}

/* a square a-b-d, a-c-d (a's eth0 to b declared first), and a tail d-e;
 * x-y apart from the rest */
static const char square[] =
    "[sim]\nduration = 1ms\n"
    "[link ab]\nends = a:eth0 b:eth0\n"
    "[link ac]\nends = a:eth1 c:eth0\n"
    "[link bd]\nends = b:eth1 d:eth0\n"
    "[link cd]\nends = c:eth1 d:eth1\n"
    "[link de]\nends = d:eth2 e:eth0\n"
    "[link xy]\nends = x:eth0 y:eth0\n";

static void test_shortest_path_and_first_link_on_ties(void **state)
{
    (void)state;
    struct sim *s = world_build(square);
    assert_string_equal(via(s, "a", "b"), "eth0");
    assert_string_equal(via(s, "a", "c"), "eth1");
    /* two paths of two hops to d: the first-declared port's */
    assert_string_equal(via(s, "a", "d"), "eth0");
    assert_string_equal(via(s, "a", "e"), "eth0");
    /* from d, a is two hops either way: b's link (d's eth0) first */
    assert_string_equal(via(s, "d", "a"), "eth0");
    assert_string_equal(via(s, "d", "c"), "eth1");
    assert_string_equal(via(s, "d", "e"), "eth2");
    assert_string_equal(via(s, "c", "b"), "eth0");
    assert_string_equal(via(s, "a", "a"), "none");
    assert_string_equal(via(s, "a", "x"), "none");
    sim_free(s);
    cfg_free(world_cfg);
}

static void test_one_port_hosts_have_no_table(void **state)
{
    (void)state;
    struct sim *s = world_build(square);
    assert_string_equal(via(s, "e", "a"), "eth0");
    assert_string_equal(via(s, "e", "d"), "eth0");
    assert_string_equal(via(s, "e", "e"), "none");
    assert_string_equal(via(s, "e", "y"), "none");       /* another component */
    assert_string_equal(via(s, "x", "y"), "eth0");
    assert_string_equal(via(s, "x", "a"), "none");
    assert_null(host_find(s, "e")->route);
    assert_null(host_find(s, "x")->route);
    /* routers build theirs when they first route, not before */
    assert_null(host_find(s, "b")->route);
    assert_string_equal(via(s, "b", "e"), "eth1");
    assert_non_null(host_find(s, "b")->route);
    assert_null(host_find(s, "c")->route);
    assert_int_equal(route_bytes_worst(s), 4 * 7);     /* a, b, c, d: 7 hosts each */
    sim_free(s);
    cfg_free(world_cfg);
}

/* A flow across the square is carried by the routers on its path only. */
static void test_only_the_path_builds_tables(void **state)
{
    (void)state;
    char ini[1024];
    snprintf(ini, sizeof ini, "%s[flow 1]\napp = ping\nfrom = e\nto = b\ncount = 2\ninterval = 100us\n", square);
    struct sim *s = world_build(ini);
    sim_run(s, false);
    assert_non_null(host_find(s, "d")->route);          /* e -> d -> b and back */
    assert_null(host_find(s, "c")->route);
    assert_null(host_find(s, "a")->route);
    assert_int_equal(world_counter(s, "d.ip_forwarded"), 4);
    sim_free(s);
    cfg_free(world_cfg);
}

/* the square with multipath routers a and d: two hops to d from a
 * through b or c, one group of both; a direct neighbour is one port */
static void test_multipath_groups(void **state)
{
    (void)state;
    char text[sizeof square + 128];
    snprintf(text, sizeof text, "%s[host a]\nroute.multipath = on\n[host d]\nroute.multipath = on\n", square);
    struct sim *s = world_build(text);
    struct host *a = host_find(s, "a"), *d = host_find(s, "d");
    assert_string_equal(via(s, "a", "b"), "eth0");
    assert_string_equal(via(s, "a", "c"), "eth1");
    assert_string_equal(via(s, "a", "d"), "eth0");      /* a group: route_next gives its first */
    assert_int_equal(a->route[idx(s, "d")], ROUTE_GROUP_BASE);
    assert_int_equal(a->route[idx(s, "e")], ROUTE_GROUP_BASE);   /* the same group, not a second */
    assert_int_equal(a->nroute_groups, 1);
    assert_int_equal(a->route_groups[0].n, 2);
    assert_int_equal(a->route_groups[0].port[0], 0);
    assert_int_equal(a->route_groups[0].port[1], 1);
    assert_int_equal(a->route[idx(s, "b")], 1);
    assert_int_equal(a->route[idx(s, "a")], 0);
    assert_int_equal(a->route[idx(s, "x")], 0);
    assert_string_equal(via(s, "d", "a"), "eth0");
    assert_int_equal(d->route[idx(s, "a")], ROUTE_GROUP_BASE);
    assert_int_equal(d->route[idx(s, "e")], 3);        /* eth2 */
    /* a packet of a flow: the hash picks a port of the group, the same
     * one for every packet of that flow (policy 1: its ports count) */
    struct skb k = { .saddr = (uint32_t)a->index, .daddr = idx(s, "e"), .proto = 6, .sport = 40000, .dport = 5201 };
    a->mp_policy = 1;
    unsigned seen[2] = { 0 };
    for (uint16_t p = 0; p < 64; p++) {
        k.sport = (uint16_t)(40000 + p);
        struct nic *n1 = route_skb(a, &k), *n2 = route_skb(a, &k);
        assert_ptr_equal(n1, n2);
        seen[n1 == a->nics[1]]++;
    }
    assert_true(seen[0] > 0 && seen[1] > 0);
    /* policy 0: the addresses only, the ports do not move a flow */
    a->mp_policy = 0;
    k.sport = 1;
    struct nic *n0 = route_skb(a, &k);
    for (uint16_t p = 2; p < 64; p++) {
        k.sport = p;
        assert_ptr_equal(route_skb(a, &k), n0);
    }
    sim_free(s);
    cfg_free(world_cfg);
}

/* fib_rebalance's upper bounds for n equal weights,
 * DIV_ROUND_CLOSEST(2^31 x (i + 1), n) - 1, and fib_select_multipath's
 * first nexthop whose bound the hash does not pass */
static void test_multipath_pick_bounds(void **state)
{
    (void)state;
    assert_int_equal(route_mp_pick(0, 1), 0);
    assert_int_equal(route_mp_pick(0x7fffffff, 1), 0);
    assert_int_equal(route_mp_pick(1073741823, 2), 0);    /* 2^30 - 1 */
    assert_int_equal(route_mp_pick(1073741824, 2), 1);
    assert_int_equal(route_mp_pick(715827882, 3), 0);     /* round(2^31 / 3) - 1 */
    assert_int_equal(route_mp_pick(715827883, 3), 1);
    assert_int_equal(route_mp_pick(1431655764, 3), 1);    /* round(2^32 / 3) - 1 */
    assert_int_equal(route_mp_pick(1431655765, 3), 2);
    assert_int_equal(route_mp_pick(0x7fffffff, 3), 2);
    assert_int_equal(route_mp_pick(0x7fffffff, 128), 127);
    assert_int_equal(route_mp_pick(16777215, 128), 0);    /* 2^24 - 1: the first 128th */
    assert_int_equal(route_mp_pick(16777216, 128), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shortest_path_and_first_link_on_ties),
        cmocka_unit_test(test_one_port_hosts_have_no_table),
        cmocka_unit_test(test_only_the_path_builds_tables),
        cmocka_unit_test(test_multipath_groups),
        cmocka_unit_test(test_multipath_pick_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
