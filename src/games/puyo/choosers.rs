//! The Puyo choosers by name: each one's declared parameters and how it is
//! built from them (`template`, `potential`, `combined` of the seed's
//! planners, `best` and `beam-v1` of the beam search). Above both the
//! planners and the search: the agents and the lab ask here.

use super::board::{CELLS, ROWS};
use super::planner::{
    Choice, Chooser, CombinedPlanner, Kill, PotentialPlanner, TemplatePlanner, Ties,
};
use super::template::PairWeight;
use crate::games::params::{Decl, Read};

/// The template planner's options when the profile gives none.
struct TemplateOptions {
    set: &'static str,
    depth: usize,
    choice: Choice,
    weights: PairWeight,
}

/// `stairs`, depth 3, the best match, pair weights by their minimum (with
/// our drawings, whose boundary is larger than the seed's, only the
/// minimum keeps the seed's meaning of 0.95, "the chain part placed": the
/// stairs' chains alone score 0.95-0.96 with it, 0.86-0.90 with the mean).
const TEMPLATE: TemplateOptions = TemplateOptions {
    set: "stairs",
    depth: 3,
    choice: Choice::Best,
    weights: PairWeight::Min,
};

/// `combined`'s `switch_at` when the profile gives none.
const SWITCH_AT: f64 = 0.9;

fn choice_name(c: Choice) -> &'static str {
    match c {
        Choice::Best => "best",
        Choice::Count => "count",
        Choice::Mean => "mean",
    }
}

fn pair_weight_name(w: PairWeight) -> &'static str {
    match w {
        PairWeight::Mean => "mean",
        PairWeight::Min => "min",
    }
}

fn kill_name(k: Kill) -> &'static str {
    match k {
        Kill::Now => "now",
        Kill::Known => "known",
    }
}

fn ties_name(t: Ties) -> &'static str {
    match t {
        Ties::Connect => "connect",
        Ties::Flat => "flat",
    }
}

/// The template planner's parameters ([`template_planner`]).
fn template_decl(d: Decl) -> Decl {
    d.choice(
        "templates",
        TEMPLATE.set,
        &["stairs", "sandwich", "domino", "all"],
        "the template set",
    )
    .int(
        "depth",
        TEMPLATE.depth as u64,
        1..=3,
        0,
        "pairs searched, the known ones",
    )
    .choice(
        "choice",
        choice_name(TEMPLATE.choice),
        &["best", "count", "mean"],
        "how leaves are compared: best match, templates not contradicted, mean match",
    )
    .choice(
        "weights",
        pair_weight_name(TEMPLATE.weights),
        &["mean", "min"],
        "a template's pair weights: their mean or their minimum",
    )
}

/// Potential maximisation's parameters.
fn potential_decl(d: Decl) -> Decl {
    let p = PotentialPlanner::default();
    d.int(
        "full_at",
        u64::from(p.full_at),
        0..=CELLS as u64,
        1,
        "empty cells at which firing at once is allowed",
    )
    .int(
        "tall_at",
        p.tall_at as u64,
        1..=ROWS as u64,
        1,
        "height of column 3 at which firing at once is allowed",
    )
    .choice(
        "kill",
        kill_name(p.kill),
        &["now", "known"],
        "what the other side could fire back: with the pair in hand, or the known pairs",
    )
    .choice(
        "ties",
        ties_name(p.ties),
        &["connect", "flat"],
        "equal moves: more same-colour neighbours first, or the lower stack",
    )
}

/// The chooser names [`build_chooser`] knows.
pub const CHOOSERS: &[&str] = &["template", "potential", "combined", "best", "beam-v1"];

/// The parameters of a chooser, declared once (see [`build_chooser`]).
pub fn chooser_decl(name: &str) -> Result<Decl, String> {
    Ok(match name {
        "template" => template_decl(Decl::new(name)),
        "potential" => potential_decl(Decl::new(name)),
        "combined" => potential_decl(template_decl(Decl::new(name))).float(
            "switch_at",
            SWITCH_AT,
            0.0..=1.0,
            0.02,
            "the best template match after which potential maximisation plays",
        ),
        "best" => super::best::BestSettings::default().decl(name),
        "beam-v1" => super::best::BestSettings::v1().decl(name),
        other => {
            return Err(format!(
                "unknown puyo chooser '{other}' (known: {})",
                CHOOSERS.join(", ")
            ))
        }
    })
}

/// A template planner from agent parameters: `templates` (a set: stairs,
/// sandwich, domino, all; default stairs), `depth` (1..=3, default 3),
/// `choice` (best, count, mean: [`Choice`]; default best), `weights`
/// (mean, min: [`super::template::PairWeight`]; default min); any other
/// parameter is an error.
pub fn template_planner(params: &crate::games::AgentParams) -> Result<TemplatePlanner, String> {
    let d = chooser_decl("template")?;
    template_from(&d.read(params)?)
}

fn template_from(p: &Read) -> Result<TemplatePlanner, String> {
    let set = p.choice("templates").unwrap_or(TEMPLATE.set);
    let depth = p.u64("depth").map_or(TEMPLATE.depth, |d| d as usize);
    let choice = p
        .choice("choice")
        .map(Choice::parse)
        .transpose()
        .map_err(|e| format!("agent_params.choice: {e}"))?
        .unwrap_or(TEMPLATE.choice);
    let weights = p
        .choice("weights")
        .map(PairWeight::parse)
        .transpose()
        .map_err(|e| format!("agent_params.weights: {e}"))?
        .unwrap_or(TEMPLATE.weights);
    let mut planner = TemplatePlanner::new(
        super::template::set_with(set, weights)
            .map_err(|e| format!("agent_params.templates: {e}"))?,
        depth,
    );
    planner.choice = choice;
    Ok(planner)
}

fn potential_from(p: &Read) -> Result<PotentialPlanner, String> {
    let d = PotentialPlanner::default();
    Ok(PotentialPlanner {
        full_at: p.u64("full_at").map_or(d.full_at, |x| x as u32),
        tall_at: p.u64("tall_at").map_or(d.tall_at, |x| x as usize),
        kill: p
            .choice("kill")
            .map(Kill::parse)
            .transpose()
            .map_err(|e| format!("agent_params.kill: {e}"))?
            .unwrap_or(d.kill),
        ties: p
            .choice("ties")
            .map(Ties::parse)
            .transpose()
            .map_err(|e| format!("agent_params.ties: {e}"))?
            .unwrap_or(d.ties),
    })
}

/// Builds a named chooser from agent parameters ([`chooser_decl`]):
/// - `template`: see [`template_planner`];
/// - `potential`: `full_at` (empty cells at which firing at once is
///   allowed, default 12), `tall_at` (height of column 3 at which it is,
///   default 10), `kill` (now, known: [`Kill`]; default known), `ties`
///   (connect, flat: [`Ties`]; default connect);
/// - `combined`: all of those and `switch_at` (default 0.9);
/// - `best`: see [`super::best::BestSettings::decl`] (`seed` default 0);
/// - `beam-v1`: the same parameters over issue 34's `best`
///   ([`super::best::BestSettings::v1`]).
pub fn build_chooser(
    name: &str,
    params: &crate::games::AgentParams,
) -> Result<Box<dyn Chooser>, String> {
    let d = chooser_decl(name)?;
    chooser_from(name, &d.read(params)?)
}

/// The chooser `name` from parameters read against [`chooser_decl`].
pub fn chooser_from(name: &str, p: &Read) -> Result<Box<dyn Chooser>, String> {
    match name {
        "template" => Ok(Box::new(template_from(p)?)),
        "potential" => Ok(Box::new(potential_from(p)?)),
        "combined" => Ok(Box::new(CombinedPlanner::new(
            template_from(p)?,
            potential_from(p)?,
            p.f64("switch_at").unwrap_or(SWITCH_AT),
        ))),
        "best" | "beam-v1" => {
            let s = super::best::BestSettings::named(name).over(p);
            let seed = p.u64("seed").unwrap_or(0);
            Ok(Box::new(super::best::BestPlanner::new(s, seed)))
        }
        other => Err(format!(
            "unknown puyo chooser '{other}' (known: {})",
            CHOOSERS.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puyo::test_params as params;

    #[test]
    fn template_and_potential_options_are_validated() {
        let p = template_planner(&params(&[("choice", "mean"), ("weights", "min")])).unwrap();
        assert_eq!(p.choice, Choice::Mean);
        assert!(p
            .templates
            .iter()
            .all(|t| t.pair_weight_rule() == PairWeight::Min));
        let d = template_planner(&params(&[])).unwrap();
        assert_eq!((d.choice, d.depth), (Choice::Best, 3));
        for bad in [
            ("choice", "first"),
            ("weights", "max"),
            ("templates", "spiral"),
        ] {
            assert!(template_planner(&params(&[bad])).is_err(), "{bad:?}");
        }
        assert!(build_chooser("potential", &params(&[("kill", "later")])).is_err());
        assert!(build_chooser("potential", &params(&[("ties", "tall")])).is_err());
        assert!(build_chooser("potential", &params(&[("tall_at", "14")])).is_err());
        // A template option is not potential maximisation's.
        assert!(build_chooser("potential", &params(&[("choice", "best")])).is_err());
        assert!(build_chooser(
            "combined",
            &params(&[
                ("choice", "count"),
                ("weights", "min"),
                ("kill", "known"),
                ("ties", "flat"),
                ("tall_at", "11"),
            ])
        )
        .is_ok());
    }
}
