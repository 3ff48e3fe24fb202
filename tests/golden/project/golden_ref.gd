extends RefCounted
## Deterministic RefCounted script used for full-object golden vectors.

@export_storage var name_sn: StringName = &""
@export_storage var value: Variant = null
@export_storage var items: Array = []
@export_storage var nested: RefCounted = null
@export_storage var point: Vector3 = Vector3.ZERO
