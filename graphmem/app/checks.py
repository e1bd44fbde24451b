"""A doctor check's line: ok / warn / fail / skip, what was seen and what to do."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from graphmem.core.errors import GraphmemError

Status = Literal["ok", "warn", "fail", "skip"]


class Check(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    status: Status
    detail: str
    fix: str = ""  # what to do; empty when ok or when the detail says it

    def line(self) -> str:
        said = self.detail + (f" -> {self.fix}" if self.fix else "")
        return f"{self.status:<4}  {self.name:<11}  {' '.join(said.split())}"  # one line


def ok(name: str, detail: str) -> Check:
    return Check(name=name, status="ok", detail=detail)


def warn(name: str, detail: str, fix: str = "") -> Check:
    return Check(name=name, status="warn", detail=detail, fix=fix)


def fail(name: str, detail: str, fix: str = "") -> Check:
    return Check(name=name, status="fail", detail=detail, fix=fix)


def skip(name: str, needs: str) -> Check:
    return Check(name=name, status="skip", detail=f"not checked: needs {needs}")


def first_line(error: BaseException) -> str:
    text = error.message if isinstance(error, GraphmemError) else str(error)
    lines = text.strip().splitlines()
    return lines[0] if lines else type(error).__name__
