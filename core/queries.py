"""A page's hot query compiled once per process (issue 28: a warm page against its login floor).

Django turns a queryset into SQL on every evaluation. For a warm page's one query with subqueries (a campaign with
the sum of its gangs' versions, the versions a cached list is keyed by) that costs several times what the database
takes to answer it, on every request. :class:`Precompiled` keeps what the ORM worked out for such a queryset (its
SQL, its parameters, how a row becomes values or a model instance) once per database connection, and runs it again
with each call's values in place of the stand-ins the queryset was built with: the queryset stays the one statement
of the query, and the page still sends one query.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, get_related_populators

#: What a query is built with in place of the values it is run with: numbers that no constant of a query is, so a
#: parameter equal to one of them is the place of that value; whole numbers that every integer field holds, so that
#: no lookup leaves one out as out of its field's range (a positive field's ``>=`` a negative number).
STAND_INS = tuple(2**31 - 1 - 7919 * n for n in range(1, 9))

#: What a database's whole numbers hold (64 bits): a value past them matches no row, as the ORM's own lookups answer
#: (no query sent), rather than an error from the database or its driver.
WHOLE_NUMBERS = range(-(2**63), 2**63)


@dataclass(frozen=True)
class _Compiled:
    sql: str
    count: int  # the values it is run with
    params: tuple
    slots: tuple  # for each parameter, the index of the value that takes its place (None: it stays as built)
    converters: tuple  # (column, converters, expression) for each column the database's value is converted for
    model: type[Model] | None  # None for a values_list() query, whose rows are tuples
    fields: slice | None = None  # the model's own columns
    init_list: tuple = ()
    populators: tuple = ()  # select_related() rows
    annotations: tuple = ()  # (name, column)


class Precompiled:
    """``build(*values)`` compiled once per connection, then run with each call's ``values`` (whole numbers: ids).

    ``build`` makes the queryset from its arguments alone: anything else it reads (the clock, settings) would be kept
    as first read. Rows come back converted as the queryset's own would (:meth:`rows`; :meth:`objects`: model
    instances with their annotations and ``select_related`` rows, as a queryset of models gives them)."""

    def __init__(self, build: Callable[..., QuerySet]):
        self.build = build
        self._by_connection: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def rows(self, *values, using: str = DEFAULT_DB_ALIAS) -> list[tuple]:
        compiled, rows = self._run(values, using)
        return [tuple(row) for row in rows]

    def objects(self, *values, using: str = DEFAULT_DB_ALIAS) -> list[Model]:
        compiled, rows = self._run(values, using)
        if compiled.model is None:
            raise TypeError("a values() query gives rows, not objects")
        found = []
        for row in rows:
            instance = compiled.model.from_db(using, list(compiled.init_list), row[compiled.fields])
            for populator in compiled.populators:
                populator.populate(row, instance)
            for name, column in compiled.annotations:
                setattr(instance, name, row[column])
            found.append(instance)
        return found

    def _run(self, values: tuple, using: str) -> tuple[_Compiled, list[list]]:
        connection = connections[using]
        compiled = self._by_connection.get(connection)
        if compiled is None:
            compiled = self._by_connection[connection] = self._compile(connection, len(values))
        if len(values) != compiled.count:
            raise TypeError(f"the query takes {compiled.count} values, not {len(values)}")
        if any(value not in WHOLE_NUMBERS for value in values):
            return compiled, []
        params = [
            param if slot is None else values[slot] for param, slot in zip(compiled.params, compiled.slots, strict=True)
        ]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = [list(row) for row in cursor.fetchall()]
        for row in rows:
            for column, converters, expression in compiled.converters:
                value = row[column]
                for converter in converters:
                    value = converter(value, expression, connection)
                row[column] = value
        return compiled, rows

    def _compile(self, connection, count: int) -> _Compiled:
        stand_ins = STAND_INS[:count]
        queryset = self.build(*stand_ins)
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        # A backend may wrap a number for its driver (psycopg's Int4): still the stand-in; the value given takes its
        # place as a plain number, whose type the driver picks.
        slots = tuple(stand_ins.index(p) if isinstance(p, int) and p in stand_ins else None for p in params)
        if set(range(count)) - set(slots):
            raise ValueError("each value must be a parameter of the query (a value the query does not use)")
        columns = [selected[0] for selected in compiler.select[: compiler.col_count]]
        if compiler.has_composite_fields(columns):
            raise ValueError("a query of composite fields is not precompiled")
        converters = tuple(
            (column, tuple(convs), expression)
            for column, (convs, expression) in compiler.get_converters(columns).items()
        )
        if queryset._iterable_class is not ModelIterable:  # values() or values_list(): plain rows
            return _Compiled(sql, count, tuple(params), slots, converters, None)
        info = compiler.klass_info
        fields = slice(info["select_fields"][0], info["select_fields"][-1] + 1)
        return _Compiled(
            sql,
            count,
            tuple(params),
            slots,
            converters,
            info["model"],
            fields,
            tuple(selected[0].target.attname for selected in compiler.select[fields]),
            tuple(get_related_populators(info, compiler.select, connection.alias)),
            tuple(compiler.annotation_col_map.items()),
        )
