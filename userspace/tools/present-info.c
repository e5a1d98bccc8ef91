// SPDX-License-Identifier: MIT
/*
 * present-info: the adapters libpresent sees -- role, CASO tier, flip-queue
 * depth, outputs and modes -- human-readable or with --json.
 *
 *   present-info [--json] [--modes]
 */
#include <stdio.h>
#include <string.h>

#include "present.h"

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void print_mode_json(const struct present_mode *m)
{
	printf("{\"name\": ");
	json_str(m->name);
	printf(", \"width\": %u, \"height\": %u, \"refresh_mhz\": %u, \"period_ns\": %llu, \"boost_period_ns\": %llu, \"preferred\": %s}",
	       m->width, m->height, m->refresh_mhz, (unsigned long long)m->period_ns,
	       (unsigned long long)m->boost_period_ns, m->preferred ? "true" : "false");
}

int main(int argc, char **argv)
{
	struct present_system *sys;
	struct present_adapter *r, *d;
	bool json = false, all_modes = false;
	int ret, n;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--modes"))
			all_modes = true;
		else {
			fprintf(stderr, "usage: %s [--json] [--modes]\n", argv[0]);
			return 2;
		}
	}
	ret = present_system_open(&sys);
	if (ret) {
		fprintf(stderr, "present-info: %s\n", present_strerror(ret));
		return 1;
	}
	n = present_system_count(sys);
	if (json)
		printf("{\"libpresent\": \"%s\", \"adapters\": [", present_version());
	else
		printf("libpresent %s: %d adapter%s\n", present_version(), n, n == 1 ? "" : "s");
	for (int i = 0; i < n; i++) {
		struct present_adapter *ad = present_system_adapter(sys, i);
		struct present_adapter_info info;

		present_adapter_info(ad, &info);
		if (json) {
			printf("%s\n  {\"index\": %u, \"driver\": ", i ? "," : "", info.index);
			json_str(info.driver);
			printf(", \"name\": ");
			json_str(info.name);
			printf(", \"primary_node\": ");
			json_str(info.primary_node);
			printf(", \"render_node\": ");
			json_str(info.render_node);
			printf(", \"role\": \"%s\", \"caso_tier\": %u, \"flipq_depth\": %u, \"num_crtcs\": %u, \"caps\": %llu, \"refresh_min_ns\": %llu, \"refresh_max_ns\": %llu, \"outputs\": [",
			       present_role_name(info.role), info.caso_tier, info.flipq_depth,
			       info.num_crtcs, (unsigned long long)info.vflipq_caps,
			       (unsigned long long)info.refresh_min_ns,
			       (unsigned long long)info.refresh_max_ns);
		} else {
			printf("adapter %u: %s (%s) %s%s%s\n  role %s, CASO tier %u, flip-queue depth %u, %u CRTC%s\n",
			       info.index, info.name, info.driver, info.primary_node,
			       info.primary_node[0] && info.render_node[0] ? " " : "", info.render_node,
			       present_role_name(info.role), info.caso_tier, info.flipq_depth,
			       info.num_crtcs, info.num_crtcs == 1 ? "" : "s");
			if (info.refresh_min_ns)
				printf("  variable refresh: frame periods %llu..%llu ns (%.2f..%.2f Hz)\n",
				       (unsigned long long)info.refresh_min_ns,
				       (unsigned long long)info.refresh_max_ns,
				       1e9 / info.refresh_max_ns, 1e9 / info.refresh_min_ns);
			else if (info.role & PRESENT_ROLE_DISPLAY)
				printf("  fixed refresh (no boost)\n");
		}
		for (uint32_t k = 0; k < info.num_outputs; k++) {
			const struct present_output *o;

			if (present_adapter_output(ad, k, &o))
				continue;
			if (json) {
				printf("%s\n    {\"name\": ", k ? "," : "");
				json_str(o->name);
				printf(", \"connector_id\": %u, \"crtc_id\": %u, \"connected\": %s, \"writeback\": %s, \"current\": ",
				       o->connector_id, o->crtc_id, o->connected ? "true" : "false",
				       o->writeback ? "true" : "false");
				if (o->current.width)
					print_mode_json(&o->current);
				else
					printf("null");
				printf(", \"modes\": [");
				for (uint32_t m = 0; m < o->num_modes; m++) {
					printf("%s", m ? ", " : "");
					print_mode_json(&o->modes[m]);
				}
				printf("]}");
				continue;
			}
			printf("  output %u: %s (connector %u) %s%s", k, o->name, o->connector_id,
			       o->writeback ? "writeback" : o->connected ? "connected" : "disconnected",
			       o->crtc_id ? "" : "\n");
			if (o->crtc_id)
				printf(", CRTC %u %s\n", o->crtc_id,
				       o->current.width ? o->current.name : "off");
			for (uint32_t m = 0; m < o->num_modes; m++) {
				const struct present_mode *md = &o->modes[m];

				if (!all_modes && m >= 4) {
					printf("    ... %u more (--modes)\n", o->num_modes - m);
					break;
				}
				printf("    %-12s %ux%u @ %u.%03u Hz%s", md->name, md->width, md->height,
				       md->refresh_mhz / 1000, md->refresh_mhz % 1000,
				       md->preferred ? " preferred" : "");
				if (md->boost_period_ns)
					printf(", boosts to %.2f Hz (x%llu)", 1e9 / md->boost_period_ns,
					       (unsigned long long)((md->period_ns +
								     md->boost_period_ns / 2) /
								    md->boost_period_ns));
				else if (info.refresh_min_ns)
					printf(", no faster multiple");
				putchar('\n');
			}
		}
		if (json)
			printf("]}");
	}
	ret = present_system_hybrid_pair(sys, 0, &r, &d);
	if (json) {
		printf("\n], \"hybrid_pair\": ");
		if (!ret)
		{
			struct present_adapter_info ri, di;

			present_adapter_info(r, &ri);
			present_adapter_info(d, &di);
			printf("{\"render\": %u, \"display\": %u}}\n", ri.index, di.index);
		}
		else
			printf("null}\n");
	} else if (!ret) {
		struct present_adapter_info ri, di;

		present_adapter_info(r, &ri);
		present_adapter_info(d, &di);
		printf("hybrid pair: render adapter %u (%s) + display adapter %u (%s, tier %u)\n",
		       ri.index, ri.name, di.index, di.name, di.caso_tier);
	} else {
		printf("hybrid pair: none\n");
	}
	present_system_close(sys);
	return 0;
}
