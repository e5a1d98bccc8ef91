// SPDX-License-Identifier: MIT
/* present-demo: placeholder until the swap chain lands. */
#include <stdio.h>

#include "present.h"

int main(void)
{
	printf("present-demo: libpresent %s\n", present_version());
	return 0;
}
