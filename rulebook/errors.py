"""The one error the rules engine raises for input a person got wrong."""


class RulesInputError(ValueError):
    """Bad input from a user or a caller: names the field so the message can say which.

    ``field`` is a dotted path into the query (``"shooter.BS"``), or the name of the
    argument (``"edition"``, ``"dice"``, ``"roll"``).
    """

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")
