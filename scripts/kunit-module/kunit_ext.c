// SPDX-License-Identifier: GPL-2.0-only
/*
 * The current KUnit test of a task, which a kernel with CONFIG_KUNIT keeps
 * in task_struct::kunit_test (vflipq_kunit.h).  KUnit runs one test case
 * at a time (one test module is loaded at a time): one slot, the task that
 * set it last and its test.  A case's thread sets it, the thread that
 * cleans up after the case sets it again and clears it; any other task
 * reads NULL, as its own kunit_test would be.
 */
#include <linux/export.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

static DEFINE_SPINLOCK(kunit_ext_lock);
static struct task_struct *kunit_ext_task;
static struct kunit *kunit_ext_test;

struct kunit *kunit_ext_get_current(void)
{
	struct kunit *test = NULL;
	unsigned long flags;

	spin_lock_irqsave(&kunit_ext_lock, flags);
	if (kunit_ext_task == current)
		test = kunit_ext_test;
	spin_unlock_irqrestore(&kunit_ext_lock, flags);
	return test;
}
EXPORT_SYMBOL_GPL(kunit_ext_get_current);

void kunit_ext_set_current(struct kunit *test)
{
	unsigned long flags;

	spin_lock_irqsave(&kunit_ext_lock, flags);
	if (test) {
		kunit_ext_task = current;
		kunit_ext_test = test;
	} else if (kunit_ext_task == current) {
		kunit_ext_task = NULL;
		kunit_ext_test = NULL;
	}
	spin_unlock_irqrestore(&kunit_ext_lock, flags);
}
EXPORT_SYMBOL_GPL(kunit_ext_set_current);
