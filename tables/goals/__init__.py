"""Tables for goals and move sets, made on demand: component coordinates, distance tables
(single, pair) and the hashed ball of positions near the goal; `plan` picks them for a goal."""
