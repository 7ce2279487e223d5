//! The winners and the reason code of the shipped scorings, decided natively by the same steps as their
//! Python hooks (the explanation, read by people, is written by the Python hook when asked for).

use crate::rules::Scoring;

/// A game's winners (seats) and the scoring's reason code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub winners: Vec<usize>,
    pub reason: &'static str,
}

/// The decision of `scoring` for `captured` (`seat * 3 + caste`), or None for an edition's own Python hook.
pub fn decide(scoring: Scoring, captured: &[i64], players: usize) -> Option<Decision> {
    let rows: Vec<[i64; 3]> = (0..players)
        .map(|s| [captured[s * 3], captured[s * 3 + 1], captured[s * 3 + 2]])
        .collect();
    match scoring {
        Scoring::LeaderTokens => Some(leader_tokens(&rows)),
        Scoring::Majorities => Some(majorities(&rows)),
        Scoring::MostFigures => Some(most_figures(&rows)),
        Scoring::Python => None,
    }
}

/// A seat's figures in all: summed in 128 bits, so that no counts handed over from Python can wrap (Python's
/// integers do not) and the decision is Python's for any 64-bit counts.
fn total(row: &[i64; 3]) -> i128 {
    row.iter().copied().map(i128::from).sum()
}

/// `plugins/ffg2015.py`'s `_leader_token_winners`.
fn leader_tokens(rows: &[[i64; 3]]) -> Decision {
    let count = rows.len();
    let mut held = vec![0usize; count];
    let mut holders = [-1i64; 3];
    for caste in 0..3 {
        let (mut best, mut holder) = (rows[0][caste], 0i64);
        for (i, row) in rows.iter().enumerate().skip(1) {
            if row[caste] > best {
                best = row[caste];
                holder = i as i64;
            } else if row[caste] == best {
                holder = -1;
            }
        }
        if holder >= 0 {
            held[holder as usize] += 1;
            holders[caste] = holder;
        }
    }
    let most = held.iter().copied().max().unwrap_or(0);
    if most == 0 {
        let best = rows.iter().map(total).max().unwrap_or(0);
        let winners: Vec<usize> = (0..count).filter(|&i| total(&rows[i]) == best).collect();
        let reason = if winners.len() == 1 {
            "no_tokens_total"
        } else {
            "no_tokens_shared"
        };
        return Decision { winners, reason };
    }
    if held.iter().filter(|&&h| h == most).count() == 1 {
        let winner = held.iter().position(|&h| h == most).unwrap_or(0);
        return Decision {
            winners: vec![winner],
            reason: "most_leader_tokens",
        };
    }
    let mut best_other: i128 = -1;
    let mut contenders: Vec<(usize, i128)> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        if held[i] != most {
            continue;
        }
        let all = total(row);
        let mut other = all;
        for (caste, &holder) in holders.iter().enumerate() {
            if holder == i as i64 {
                other -= i128::from(row[caste]);
            }
        }
        if other > best_other || contenders.is_empty() {
            best_other = other;
            contenders = vec![(i, all)];
        } else if other == best_other {
            contenders.push((i, all));
        }
    }
    if contenders.len() == 1 {
        return Decision {
            winners: vec![contenders[0].0],
            reason: "other_castes",
        };
    }
    let best = contenders.iter().map(|&(_, t)| t).max().unwrap_or(0);
    let winners: Vec<usize> = contenders
        .iter()
        .filter(|&&(_, t)| t == best)
        .map(|&(i, _)| i)
        .collect();
    let reason = if winners.len() == 1 {
        "all_castes"
    } else {
        "shared_win"
    };
    Decision { winners, reason }
}

/// `plugins/original.py`'s `score_majorities`.
fn majorities(rows: &[[i64; 3]]) -> Decision {
    let count = rows.len();
    let mut majorities: Vec<Vec<usize>> = vec![Vec::new(); count];
    for caste in 0..3 {
        let most = rows.iter().map(|r| r[caste]).max().unwrap_or(0);
        let holders: Vec<usize> = (0..count).filter(|&s| rows[s][caste] == most).collect();
        if holders.len() == 1 {
            majorities[holders[0]].push(caste);
        }
    }
    if let Some(seat) = (0..count).find(|&s| majorities[s].len() >= 2) {
        return Decision {
            winners: vec![seat],
            reason: "two_majorities",
        };
    }
    let holders: Vec<usize> = (0..count).filter(|&s| !majorities[s].is_empty()).collect();
    if holders.is_empty() {
        return most_in_total(
            rows,
            &(0..count).collect::<Vec<_>>(),
            "no_majority_total",
            "no_majority_shared",
        );
    }
    let other = |s: usize| total(&rows[s]) - i128::from(rows[s][majorities[s][0]]);
    let best = holders.iter().map(|&s| other(s)).max().unwrap_or(0);
    let leading: Vec<usize> = holders
        .iter()
        .copied()
        .filter(|&s| other(s) == best)
        .collect();
    if leading.len() == 1 {
        return Decision {
            winners: leading,
            reason: "other_figures",
        };
    }
    most_in_total(rows, &leading, "total_figures", "shared_win")
}

fn most_in_total(
    rows: &[[i64; 3]],
    seats: &[usize],
    reason: &'static str,
    shared: &'static str,
) -> Decision {
    let best = seats.iter().map(|&s| total(&rows[s])).max().unwrap_or(0);
    let winners: Vec<usize> = seats
        .iter()
        .copied()
        .filter(|&s| total(&rows[s]) == best)
        .collect();
    let reason = if winners.len() == 1 { reason } else { shared };
    Decision { winners, reason }
}

/// `samurai_plugins.knizia.editions.defaults.most_figures_wins`.
fn most_figures(rows: &[[i64; 3]]) -> Decision {
    let seats: Vec<usize> = (0..rows.len()).collect();
    most_in_total(rows, &seats, "most_figures", "shared_most_figures")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leader_tokens_by_the_rule_steps() {
        // Seat 0 leads buddha and rice: two tokens against one.
        let d = decide(Scoring::LeaderTokens, &[3, 3, 0, 1, 1, 4], 2).unwrap();
        assert_eq!((d.winners, d.reason), (vec![0], "most_leader_tokens"));
        // Nobody leads anything: totals, tied.
        let d = decide(Scoring::LeaderTokens, &[1, 1, 1, 1, 1, 1], 2).unwrap();
        assert_eq!((d.winners, d.reason), (vec![0, 1], "no_tokens_shared"));
        // One token each (castle tied): outside its token's caste seat 0 has 2, seat 1 has 1.
        let d = decide(Scoring::LeaderTokens, &[5, 1, 1, 0, 3, 1], 2).unwrap();
        assert_eq!((d.winners, d.reason), (vec![0], "other_castes"));
    }

    #[test]
    fn majorities_by_the_rule_steps() {
        let d = decide(Scoring::Majorities, &[3, 3, 0, 1, 1, 4], 2).unwrap();
        assert_eq!((d.winners, d.reason), (vec![0], "two_majorities"));
        let d = decide(Scoring::Majorities, &[0, 0, 0, 0, 0, 0, 0, 0, 0], 3).unwrap();
        assert_eq!((d.winners, d.reason), (vec![0, 1, 2], "no_majority_shared"));
    }

    #[test]
    fn most_figures_shares_a_tie() {
        let d = decide(Scoring::MostFigures, &[1, 2, 0, 3, 0, 0], 2).unwrap();
        assert_eq!((d.winners, d.reason), (vec![0, 1], "shared_most_figures"));
        assert_eq!(decide(Scoring::Python, &[0; 6], 2), None);
    }

    #[test]
    fn the_largest_counts_do_not_wrap() {
        // Seat 0's total is 3 * i64::MAX: in 64 bits it would wrap below seat 1's.
        let d = decide(
            Scoring::MostFigures,
            &[i64::MAX, i64::MAX, i64::MAX, i64::MAX, 0, 0],
            2,
        )
        .unwrap();
        assert_eq!((d.winners, d.reason), (vec![0], "most_figures"));
        let d = decide(
            Scoring::LeaderTokens,
            &[i64::MAX, 2, i64::MAX, 1, i64::MAX, i64::MAX],
            2,
        )
        .unwrap();
        assert_eq!((d.winners, d.reason), (vec![0], "other_castes"));
        let d = decide(Scoring::Majorities, &[i64::MAX; 6], 2).unwrap();
        assert_eq!((d.winners, d.reason), (vec![0, 1], "no_majority_shared"));
    }
}
