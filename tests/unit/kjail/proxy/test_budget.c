/* SPDX-License-Identifier: MIT */
/* The proxy's memory budget (proxy/budget.c): growth is taken only within
 * the limit, the connections' own share counted; what a connection cannot
 * do without is charged even past it; what is given back can be taken
 * again; and many threads taking and giving at once never pass the limit
 * and end where they began. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit-skip.h"
#include <pthread.h>

#include "proxy/budget.h"

static void test_take_within(void **state)
{
	(void)state;
	atomic_uint conns = 0;
	struct proxy_budget b;
	proxy_budget_init(&b, 1000, &conns, 100);
	assert_true(proxy_budget_take(&b, 600));
	assert_true(proxy_budget_take(&b, 400));
	assert_false(proxy_budget_take(&b, 1));
	assert_int_equal(atomic_load(&b.held), 1000);
	proxy_budget_give(&b, 400);
	assert_false(proxy_budget_take(&b, 401));
	assert_true(proxy_budget_take(&b, 400));
	/* more than the limit at once, and SIZE_MAX, never wrap */
	proxy_budget_give(&b, 1000);
	assert_false(proxy_budget_take(&b, 1001));
	assert_false(proxy_budget_take(&b, SIZE_MAX));
	assert_int_equal(atomic_load(&b.held), 0);
}

static void test_connections_count(void **state)
{
	(void)state;
	atomic_uint conns = 3;
	struct proxy_budget b;
	proxy_budget_init(&b, 1000, &conns, 100);
	assert_false(proxy_budget_take(&b, 701)); /* 3 x 100 are the connections' */
	assert_true(proxy_budget_take(&b, 700));
	proxy_budget_give(&b, 700);
	conns = 11; /* their share alone past the limit: nothing grows */
	assert_false(proxy_budget_take(&b, 1));
	conns = 0;
	assert_true(proxy_budget_take(&b, 1000));
}

static void test_charge_past_limit(void **state)
{
	(void)state;
	atomic_uint conns = 0;
	struct proxy_budget b;
	proxy_budget_init(&b, 100, &conns, 0);
	proxy_budget_charge(&b, 80);
	proxy_budget_charge(&b, 80);
	assert_int_equal(atomic_load(&b.held), 160);
	assert_false(proxy_budget_take(&b, 1));
	proxy_budget_give(&b, 80);
	assert_true(proxy_budget_take(&b, 20));
	assert_false(proxy_budget_take(&b, 1));
}

struct racer {
	struct proxy_budget *b;
	size_t over; /* times the total was seen past the limit */
};

static void *race(void *arg)
{
	struct racer *r = arg;
	for (int i = 0; i < 100000; i++) {
		size_t n = 1 + (size_t)(i % 7) * 10;
		if (!proxy_budget_take(r->b, n))
			continue;
		if (atomic_load(&r->b->held) > r->b->limit)
			r->over++;
		proxy_budget_give(r->b, n);
	}
	return NULL;
}

static void test_threads(void **state)
{
	(void)state;
	atomic_uint conns = 0;
	struct proxy_budget b;
	proxy_budget_init(&b, 150, &conns, 0);
	struct racer r[4];
	pthread_t t[4];
	for (int i = 0; i < 4; i++) {
		r[i] = (struct racer){ &b, 0 };
		assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(r[i].over, 0);
	}
	assert_int_equal(atomic_load(&b.held), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_take_within),
		cmocka_unit_test(test_connections_count),
		cmocka_unit_test(test_charge_past_limit),
		cmocka_unit_test(test_threads),
	};
	return unit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
