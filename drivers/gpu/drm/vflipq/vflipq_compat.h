/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interfaces that differ between the kernels vflipq builds against (6.1 and
 * 6.12).  Kbuild probes the headers and defines VFLIPQ_HAVE_*; nothing here
 * tests version numbers.
 */
#ifndef _VFLIPQ_COMPAT_H_
#define _VFLIPQ_COMPAT_H_

#include <linux/mm.h>

static inline void vflipq_vma_forbid_write(struct vm_area_struct *vma)
{
#ifdef VFLIPQ_HAVE_VM_FLAGS_CLEAR
	vm_flags_clear(vma, VM_MAYWRITE);
#else
	vma->vm_flags &= ~VM_MAYWRITE;
#endif
}

#endif /* _VFLIPQ_COMPAT_H_ */
