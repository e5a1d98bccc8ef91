// SPDX-License-Identifier: GPL-2.0-only
/*
 * configfs interface: /sys/kernel/config/vflipq/<name>/ describes one device.
 * The configuration is edited while the device is disabled and frozen while
 * it exists; "enabled" creates and removes the DRM device.
 */

#include <linux/configfs.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "vflipq_drv.h"

/**
 * struct vflipq_cfs_device - one configfs device directory
 * @group: configfs group
 * @lock: serialises attribute access against enable/disable
 * @cfg: configuration (under @lock)
 * @vdev: the DRM device while enabled, else NULL (under @lock)
 * @connected: mask of connected outputs, runtime-writable (under @lock)
 */
struct vflipq_cfs_device {
	struct config_group group;
	/* serialises attribute access against enable/disable */
	struct mutex lock;
	struct vflipq_config cfg;
	struct vflipq_device *vdev;
	u32 connected;
};

static struct vflipq_cfs_device *to_cfs_device(struct config_item *item)
{
	return container_of(to_config_group(item), struct vflipq_cfs_device,
			    group);
}

static ssize_t show_uint(struct config_item *item, char *page,
			 const unsigned int *field)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	ssize_t ret;

	mutex_lock(&d->lock);
	ret = sprintf(page, "%u\n", *field);
	mutex_unlock(&d->lock);
	return ret;
}

static ssize_t store_uint(struct config_item *item, const char *page,
			  size_t len, unsigned int *field, unsigned int min,
			  unsigned int max)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	unsigned int v;
	int ret;

	ret = kstrtouint(page, 0, &v);
	if (ret)
		return ret;
	if (v < min || v > max)
		return -EINVAL;

	mutex_lock(&d->lock);
	if (d->vdev)
		ret = -EBUSY;
	else
		*field = v;
	mutex_unlock(&d->lock);
	return ret ? ret : len;
}

static ssize_t show_bool(struct config_item *item, char *page,
			 const bool *field)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	ssize_t ret;

	mutex_lock(&d->lock);
	ret = sprintf(page, "%d\n", *field);
	mutex_unlock(&d->lock);
	return ret;
}

static ssize_t store_bool(struct config_item *item, const char *page,
			  size_t len, bool *field)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	bool v;
	int ret;

	ret = kstrtobool(page, &v);
	if (ret)
		return ret;

	mutex_lock(&d->lock);
	if (d->vdev)
		ret = -EBUSY;
	else
		*field = v;
	mutex_unlock(&d->lock);
	return ret ? ret : len;
}

static ssize_t vflipq_cfs_crtcs_show(struct config_item *item, char *page)
{
	return show_uint(item, page, &to_cfs_device(item)->cfg.crtcs);
}

static ssize_t vflipq_cfs_crtcs_store(struct config_item *item,
				      const char *page, size_t len)
{
	return store_uint(item, page, len, &to_cfs_device(item)->cfg.crtcs,
			  0, VFLIPQ_MAX_CRTCS);
}

static ssize_t vflipq_cfs_overlays_show(struct config_item *item, char *page)
{
	return show_uint(item, page, &to_cfs_device(item)->cfg.overlays);
}

static ssize_t vflipq_cfs_overlays_store(struct config_item *item,
					 const char *page, size_t len)
{
	return store_uint(item, page, len, &to_cfs_device(item)->cfg.overlays,
			  0, VFLIPQ_MAX_OVERLAYS);
}

static ssize_t vflipq_cfs_flipq_depth_show(struct config_item *item,
					   char *page)
{
	return show_uint(item, page, &to_cfs_device(item)->cfg.flipq_depth);
}

static ssize_t vflipq_cfs_flipq_depth_store(struct config_item *item,
					    const char *page, size_t len)
{
	return store_uint(item, page, len,
			  &to_cfs_device(item)->cfg.flipq_depth, 1,
			  VFLIPQ_FLIPQ_MAX_DEPTH);
}

static ssize_t show_caso_bit(struct config_item *item, char *page,
			     unsigned int bit)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	ssize_t ret;

	mutex_lock(&d->lock);
	ret = sprintf(page, "%d\n", !!(d->cfg.caso_caps & bit));
	mutex_unlock(&d->lock);
	return ret;
}

/* The superset rule is checked when the device is enabled, not here. */
static ssize_t store_caso_bit(struct config_item *item, const char *page,
			      size_t len, unsigned int bit)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	bool v;
	int ret;

	ret = kstrtobool(page, &v);
	if (ret)
		return ret;

	mutex_lock(&d->lock);
	if (d->vdev)
		ret = -EBUSY;
	else if (v)
		d->cfg.caso_caps |= bit;
	else
		d->cfg.caso_caps &= ~bit;
	mutex_unlock(&d->lock);
	return ret ? ret : len;
}

/* One boolean attribute per CASO capability bit. */
#define VFLIPQ_CFS_CASO_ATTR(_name, _bit)				\
static const unsigned int vflipq_cfs_##_name##_bit = _bit;		\
static ssize_t vflipq_cfs_##_name##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return show_caso_bit(item, page, vflipq_cfs_##_name##_bit);	\
}									\
static ssize_t vflipq_cfs_##_name##_store(struct config_item *item,	\
					  const char *page, size_t len)	\
{									\
	return store_caso_bit(item, page, len,				\
			      vflipq_cfs_##_name##_bit);		\
}									\
CONFIGFS_ATTR(vflipq_cfs_, _name)

VFLIPQ_CFS_CASO_ATTR(caso_copy, VFLIPQ_CASO_COPY);
VFLIPQ_CFS_CASO_ATTR(caso_texture, VFLIPQ_CASO_TEXTURE);
VFLIPQ_CFS_CASO_ATTR(caso_scanout, VFLIPQ_CASO_SCANOUT);

/* A boolean attribute, the configuration's @_field (named alike). */
#define VFLIPQ_CFS_BOOL_ATTR(_name, _field)				\
static bool *vflipq_cfs_##_name##_field(struct config_item *item)	\
{									\
	return &to_cfs_device(item)->cfg._field;			\
}									\
static ssize_t vflipq_cfs_##_name##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return show_bool(item, page, vflipq_cfs_##_name##_field(item));	\
}									\
static ssize_t vflipq_cfs_##_name##_store(struct config_item *item,	\
					  const char *page, size_t len)	\
{									\
	return store_bool(item, page, len,				\
			  vflipq_cfs_##_name##_field(item));		\
}									\
CONFIGFS_ATTR(vflipq_cfs_, _name)

VFLIPQ_CFS_BOOL_ATTR(hybrid_integrated, hybrid_integrated);
VFLIPQ_CFS_BOOL_ATTR(cursor, cursor);
VFLIPQ_CFS_BOOL_ATTR(writeback, writeback);
VFLIPQ_CFS_BOOL_ATTR(fbdev, fbdev);
VFLIPQ_CFS_BOOL_ATTR(vblank_align, vblank_align);

static ssize_t vflipq_cfs_bandwidth_show(struct config_item *item, char *page)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	ssize_t ret;

	mutex_lock(&d->lock);
	ret = sprintf(page, "%llu\n", d->cfg.bandwidth);
	mutex_unlock(&d->lock);
	return ret;
}

static ssize_t vflipq_cfs_bandwidth_store(struct config_item *item,
					  const char *page, size_t len)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	u64 v;
	int ret;

	ret = kstrtou64(page, 0, &v);
	if (ret)
		return ret;

	mutex_lock(&d->lock);
	if (d->vdev)
		ret = -EBUSY;
	else
		d->cfg.bandwidth = v;
	mutex_unlock(&d->lock);
	return ret ? ret : len;
}

static ssize_t vflipq_cfs_modes_show(struct config_item *item, char *page)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	ssize_t off = 0;
	unsigned int i;

	mutex_lock(&d->lock);
	for (i = 0; i < d->cfg.num_modes; i++) {
		off += vflipq_format_mode(&d->cfg.modes[i], page + off,
					  PAGE_SIZE - off);
		off += scnprintf(page + off, PAGE_SIZE - off, "\n");
	}
	mutex_unlock(&d->lock);
	return off;
}

static ssize_t vflipq_cfs_modes_store(struct config_item *item,
				      const char *page, size_t len)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	struct vflipq_config *tmp;
	int ret;

	tmp = kmalloc(sizeof(*tmp), GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;

	mutex_lock(&d->lock);
	*tmp = d->cfg;
	if (d->vdev) {
		ret = -EBUSY;
	} else {
		ret = vflipq_parse_mode_list(page, tmp);
		if (!ret)
			d->cfg = *tmp;
	}
	mutex_unlock(&d->lock);
	kfree(tmp);
	return ret ? ret : len;
}

static ssize_t vflipq_cfs_preferred_mode_show(struct config_item *item,
					      char *page)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	ssize_t off;

	mutex_lock(&d->lock);
	off = vflipq_format_mode(&d->cfg.modes[d->cfg.preferred], page,
				 PAGE_SIZE);
	mutex_unlock(&d->lock);
	return off + scnprintf(page + off, PAGE_SIZE - off, "\n");
}

static ssize_t vflipq_cfs_preferred_mode_store(struct config_item *item,
					       const char *page, size_t len)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	int ret;

	mutex_lock(&d->lock);
	if (d->vdev)
		ret = -EBUSY;
	else
		ret = vflipq_config_set_preferred(&d->cfg, page);
	mutex_unlock(&d->lock);
	return ret ? ret : len;
}

static ssize_t vflipq_cfs_enabled_show(struct config_item *item, char *page)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	ssize_t ret;

	mutex_lock(&d->lock);
	ret = sprintf(page, "%d\n", !!d->vdev);
	mutex_unlock(&d->lock);
	return ret;
}

static ssize_t vflipq_cfs_enabled_store(struct config_item *item,
					const char *page, size_t len)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	struct vflipq_device *vdev;
	bool enable;
	int ret;

	ret = kstrtobool(page, &enable);
	if (ret)
		return ret;

	mutex_lock(&d->lock);
	if (enable && !d->vdev) {
		vdev = vflipq_device_create(&d->cfg);
		if (IS_ERR(vdev))
			ret = PTR_ERR(vdev);
		else
			d->vdev = vdev;
		if (!ret && d->connected != U32_MAX)
			vflipq_output_set_connected(vdev, d->connected);
	} else if (!enable && d->vdev) {
		vflipq_device_destroy(d->vdev);
		d->vdev = NULL;
	}
	mutex_unlock(&d->lock);
	return ret ? ret : len;
}

static ssize_t vflipq_cfs_connected_show(struct config_item *item, char *page)
{
	return show_uint(item, page, &to_cfs_device(item)->connected);
}

/* Unlike the rest of the configuration, also while enabled: a hotplug. */
static ssize_t vflipq_cfs_connected_store(struct config_item *item,
					  const char *page, size_t len)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	u32 v;

	if (kstrtou32(page, 0, &v))
		return -EINVAL;
	mutex_lock(&d->lock);
	d->connected = v;
	if (d->vdev)
		vflipq_output_set_connected(d->vdev, v);
	mutex_unlock(&d->lock);
	return len;
}

static ssize_t vflipq_cfs_card_show(struct config_item *item, char *page)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	ssize_t ret;

	mutex_lock(&d->lock);
	ret = sprintf(page, "%d\n", d->vdev ? vflipq_device_minor(d->vdev) : -1);
	mutex_unlock(&d->lock);
	return ret;
}

static ssize_t vflipq_cfs_device_id_show(struct config_item *item, char *page)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);
	ssize_t ret;

	mutex_lock(&d->lock);
	ret = sprintf(page, "%d\n", d->vdev ? d->vdev->id : -1);
	mutex_unlock(&d->lock);
	return ret;
}

CONFIGFS_ATTR(vflipq_cfs_, crtcs);
CONFIGFS_ATTR(vflipq_cfs_, overlays);
CONFIGFS_ATTR(vflipq_cfs_, flipq_depth);
CONFIGFS_ATTR(vflipq_cfs_, bandwidth);
CONFIGFS_ATTR(vflipq_cfs_, modes);
CONFIGFS_ATTR(vflipq_cfs_, preferred_mode);
CONFIGFS_ATTR(vflipq_cfs_, enabled);
CONFIGFS_ATTR(vflipq_cfs_, connected);
CONFIGFS_ATTR_RO(vflipq_cfs_, card);
CONFIGFS_ATTR_RO(vflipq_cfs_, device_id);

static struct configfs_attribute *vflipq_cfs_attrs[] = {
	&vflipq_cfs_attr_crtcs,
	&vflipq_cfs_attr_overlays,
	&vflipq_cfs_attr_flipq_depth,
	&vflipq_cfs_attr_caso_copy,
	&vflipq_cfs_attr_caso_texture,
	&vflipq_cfs_attr_caso_scanout,
	&vflipq_cfs_attr_hybrid_integrated,
	&vflipq_cfs_attr_bandwidth,
	&vflipq_cfs_attr_cursor,
	&vflipq_cfs_attr_writeback,
	&vflipq_cfs_attr_fbdev,
	&vflipq_cfs_attr_vblank_align,
	&vflipq_cfs_attr_modes,
	&vflipq_cfs_attr_preferred_mode,
	&vflipq_cfs_attr_enabled,
	&vflipq_cfs_attr_connected,
	&vflipq_cfs_attr_card,
	&vflipq_cfs_attr_device_id,
	NULL,
};

static void vflipq_cfs_device_release(struct config_item *item)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);

	mutex_destroy(&d->lock);
	kfree(d);
}

static struct configfs_item_operations vflipq_cfs_device_ops = {
	.release = vflipq_cfs_device_release,
};

static const struct config_item_type vflipq_cfs_device_type = {
	.ct_item_ops	= &vflipq_cfs_device_ops,
	.ct_attrs	= vflipq_cfs_attrs,
	.ct_owner	= THIS_MODULE,
};

static struct config_group *vflipq_cfs_make_group(struct config_group *group,
						  const char *name)
{
	struct vflipq_cfs_device *d;

	if (strlen(name) >= VFLIPQ_NAME_LEN)
		return ERR_PTR(-ENAMETOOLONG);

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return ERR_PTR(-ENOMEM);

	mutex_init(&d->lock);
	d->connected = U32_MAX;
	vflipq_config_init_defaults(&d->cfg, name);
	d->cfg.from_configfs = true;
	config_group_init_type_name(&d->group, name, &vflipq_cfs_device_type);
	return &d->group;
}

/* rmdir of an enabled device removes it, exactly like enabled = 0. */
static void vflipq_cfs_drop_item(struct config_group *group,
				 struct config_item *item)
{
	struct vflipq_cfs_device *d = to_cfs_device(item);

	mutex_lock(&d->lock);
	if (d->vdev) {
		vflipq_device_destroy(d->vdev);
		d->vdev = NULL;
	}
	mutex_unlock(&d->lock);
	config_item_put(item);
}

static struct configfs_group_operations vflipq_cfs_root_ops = {
	.make_group	= vflipq_cfs_make_group,
	.drop_item	= vflipq_cfs_drop_item,
};

static const struct config_item_type vflipq_cfs_root_type = {
	.ct_group_ops	= &vflipq_cfs_root_ops,
	.ct_owner	= THIS_MODULE,
};

static struct configfs_subsystem vflipq_cfs_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf	= VFLIPQ_DRIVER_NAME,
			.ci_type	= &vflipq_cfs_root_type,
		},
	},
};

int vflipq_configfs_register(void)
{
	config_group_init(&vflipq_cfs_subsys.su_group);
	mutex_init(&vflipq_cfs_subsys.su_mutex);
	return configfs_register_subsystem(&vflipq_cfs_subsys);
}

void vflipq_configfs_unregister(void)
{
	configfs_unregister_subsystem(&vflipq_cfs_subsys);
}
