"""What the app says in the reader's language, as plain text with no models, so that
models, selectors, services, the API and the templates all say it alike:

- ``names``: the game's words (sides, variants, outcomes, the one result text, bracket
  stages, job stages);
- ``engine_errors``: the engine's refusals (a stable code and its parameters) as
  sentences, with the rule broken;
- ``rule_options``: the engine's rule options as the app stores and labels them;
- ``verification``: a game's verification note, stored as a code and parameters and
  said when it is shown."""
