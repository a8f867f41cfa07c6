"""The four mini-games of seed 002 (Los Lobos, Doll House, Ryūjin Jakka, Zangetsu), played turn by
turn with verifiable randomness (:mod:`cardlab.play.rng`), their saved state (:mod:`cardlab.play.store`)
and their exact odds (:mod:`cardlab.play.odds`)."""
