"""The schema applies once per catalogue: a start whose schema statements are the ones the
database's stamp names, their indexes all there, applies none; any change to them applies them
all again (in one transaction) and moves the stamp; an index dropped since comes back."""

from __future__ import annotations

import shutil
from pathlib import Path

from graphmem.store import QueryCatalog, Store
from graphmem.store.catalog import catalog_root

PROBE = "schema_stamp_probe"


async def _indexes(store: Store) -> set[str]:
    return {row["name"] for row in await store.schema_state()}


async def test_a_restart_with_the_same_schema_applies_nothing(store: Store) -> None:
    assert await store.apply_schema() == []


async def test_a_changed_schema_applies_again_and_moves_the_stamp(
    store: Store, tmp_path: Path
) -> None:
    root = tmp_path / "cypher"
    shutil.copytree(catalog_root(), root)
    (root / "schema" / "999_schema_stamp_probe.cypher").write_text(
        f"CREATE INDEX {PROBE} IF NOT EXISTS FOR (probe:StampProbe) ON (probe.tenant)\n"
    )
    (root / "probe").mkdir()
    (root / "probe" / "drop_probe.cypher").write_text(f"DROP INDEX {PROBE} IF EXISTS\n")
    changed = Store(
        store._driver,  # pyright: ignore[reportPrivateUsage]  # the same database, another catalogue
        uri=store.uri,
        user=store.user,
        database=store.database,
        catalog=QueryCatalog(root),
        owns_driver=False,
    )
    try:
        applied = await changed.apply_schema()
        assert "schema/999_schema_stamp_probe" in applied
        assert len(applied) == len(changed.catalog.under("schema"))
        assert PROBE in await _indexes(store)
        assert await changed.apply_schema() == []  # its stamp now
        await changed.write("probe/drop_probe", tenant="-")  # dropped by hand, stamp unchanged
        assert await changed.apply_schema() != []
        assert PROBE in await _indexes(store)
    finally:
        await changed.write("probe/drop_probe", tenant="-")
    assert await store.apply_schema() != []  # the real catalogue's stamp back
    assert await store.apply_schema() == []
