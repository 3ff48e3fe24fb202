extends Resource
## Deterministic Resource script used for full-object (var_to_bytes_with_objects)
## golden vectors. Every stored property has a fixed default.

@export var label: String = ""
@export var count: int = 0
@export var ratio: float = 0.0
@export var tags: PackedStringArray = PackedStringArray()
@export var child: Resource = null
@export_storage var extra: Dictionary = {}
## Not stored: must never show up in the encoding.
var transient: int = 7
