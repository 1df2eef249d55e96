use super::*;
use proptest::prelude::*;

fn graph(edges: &[(usize, usize, i128)]) -> Vec<Edge> {
    edges
        .iter()
        .map(|&(i, j, w)| (i, j, Weight::from_u64(w as u64)))
        .collect()
}

/// The heaviest matching's weight by trying every matching (small graphs only).
fn brute_force(n: usize, edges: &[(usize, usize, i128)]) -> i128 {
    fn go(v: usize, n: usize, used: &mut Vec<bool>, adj: &Vec<Vec<(usize, i128)>>) -> i128 {
        let Some(v) = (v..n).find(|&v| !used[v]) else {
            return 0;
        };
        used[v] = true;
        let mut best = go(v + 1, n, used, adj);
        for &(w, wt) in &adj[v] {
            if !used[w] {
                used[w] = true;
                best = best.max(wt + go(v + 1, n, used, adj));
                used[w] = false;
            }
        }
        used[v] = false;
        best
    }
    let mut adj = vec![Vec::new(); n];
    for &(i, j, w) in edges {
        adj[i].push((j, w));
        adj[j].push((i, w));
    }
    go(0, n, &mut vec![false; n], &adj)
}

fn weight_of(mate: &[Option<usize>], edges: &[(usize, usize, i128)]) -> i128 {
    edges
        .iter()
        .filter(|(i, j, _)| mate[*i] == Some(*j))
        .map(|e| e.2)
        .sum()
}

#[test]
fn a_blossom_is_shrunk_and_expanded() {
    // The classic test of van Rantwijk's suite: an S-blossom relabelled as T.
    let edges = [
        (1, 2, 9),
        (1, 3, 8),
        (2, 3, 10),
        (1, 4, 5),
        (4, 5, 4),
        (1, 6, 3),
    ];
    let mate = max_weight_matching(7, &graph(&edges));
    assert_eq!(
        mate,
        vec![None, Some(6), Some(3), Some(2), Some(5), Some(4), Some(1)]
    );
}

#[test]
fn nested_blossoms_are_augmented_through() {
    let edges = [
        (1, 2, 19),
        (1, 3, 20),
        (1, 8, 8),
        (2, 3, 25),
        (2, 4, 18),
        (3, 5, 18),
        (4, 5, 13),
        (4, 7, 7),
        (5, 6, 7),
    ];
    let mate = max_weight_matching(9, &graph(&edges));
    assert_eq!(
        mate,
        vec![
            None,
            Some(8),
            Some(3),
            Some(2),
            Some(7),
            Some(6),
            Some(5),
            Some(4),
            Some(1)
        ]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn matches_the_brute_force_optimum(
        n in 2usize..11,
        raw in proptest::collection::vec((0usize..11, 0usize..11, 1i128..40), 0..30),
    ) {
        let mut seen = std::collections::HashSet::new();
        let edges: Vec<(usize, usize, i128)> = raw
            .into_iter()
            .filter(|(i, j, _)| i < j && *j < n)
            .filter(|(i, j, _)| seen.insert((*i, *j)))
            .collect();
        let mate = max_weight_matching(n, &graph(&edges));
        for v in 0..n {
            if let Some(w) = mate[v] {
                prop_assert_eq!(mate[w], Some(v));
                prop_assert!(edges.iter().any(|e| (e.0, e.1) == (v.min(w), v.max(w))));
            }
        }
        prop_assert_eq!(weight_of(&mate, &edges), brute_force(n, &edges));
    }

    #[test]
    fn max_cardinality_is_the_heaviest_of_the_largest_matchings(
        n in 2usize..10,
        raw in proptest::collection::vec((0usize..10, 0usize..10, 1i128..40), 0..24),
    ) {
        let mut seen = std::collections::HashSet::new();
        let edges: Vec<(usize, usize, i128)> = raw
            .into_iter()
            .filter(|(i, j, _)| i < j && *j < n)
            .filter(|(i, j, _)| seen.insert((*i, *j)))
            .collect();
        // The same optimum as a plain matching whose every edge carries a bonus
        // larger than all weights together: size first, then weight.
        let bonus: i128 = 1 + edges.iter().map(|e| e.2).sum::<i128>();
        let boosted: Vec<(usize, usize, i128)> =
            edges.iter().map(|&(i, j, w)| (i, j, w + bonus)).collect();
        let mate = max_cardinality_matching(n, &graph(&edges));
        let size = mate.iter().flatten().count() as i128 / 2;
        prop_assert_eq!(
            weight_of(&mate, &edges) + size * bonus,
            brute_force(n, &boosted)
        );
    }
}
