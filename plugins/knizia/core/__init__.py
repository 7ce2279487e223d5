"""The nouns of Knizia's game: hexes, tiles, maps, the fast position, actions, results and facts;
no rule decides here."""
