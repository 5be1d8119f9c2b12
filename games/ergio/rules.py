"""Er Giò's rule book: every rule id the engine and the summary scorer use.

Source: ../shared/rules/er-gio.txt. docs/rules/ergio.md gives each id its section of the
text and the decision taken where the text is silent or ambiguous.
"""

from __future__ import annotations

from games.core import RuleBook

SLUG = "ergio"

RULE_GAME_OVER = "ergio.record.game_over"
RULE_IMPOSSIBLE = "ergio.record.impossible"
RULE_CLAIMED = "ergio.record.claimed_score"

BOOK = RuleBook(
    SLUG,
    {
        RULE_GAME_OVER: (
            "La partita è finita: nessuna altra azione.",
            "The game is over: no further action.",
        ),
        RULE_IMPOSSIBLE: (
            "L'azione non può avvenire fisicamente.",
            "The action cannot physically happen.",
        ),
        RULE_CLAIMED: (
            "Il punteggio scritto deve essere quello dato dalle regole.",
            "The score written down must be the one the rules give.",
        ),
        "ergio.deck.own_side": (
            "Ogni parte pesca solo dal proprio mazzo (blu Tramontana, rosso Mezzogiorno).",
            "Each side draws only from its own deck (blue Tramontana, red Mezzogiorno).",
        ),
        "ergio.turn.order": (
            "Si gioca a turno: agisce solo chi ha la mano.",
            "Play goes in turns: only the player whose turn it is may act.",
        ),
        "ergio.phase.action": (
            "Questa azione non appartiene al momento della partita in corso.",
            "This action does not belong to the current stage of the game.",
        ),
        "ergio.card.in_hand": (
            "Si gioca solo una carta che si ha in mano.",
            "Only a card held in hand may be played.",
        ),
        "ergio.corteo.deal": (
            "All'inizio ognuno pesca 12 carte (9 in quattro, 7 in sei).",
            "At the start each player draws 12 cards (9 with four players, 7 with six).",
        ),
        "ergio.corteo.draw": (
            "A inizio turno si pescano 2 carte dal proprio mazzo (3 per i ragazzi), finché "
            "ce ne sono.",
            "A turn starts by drawing 2 cards from one's own deck (3 in the children's game) "
            "while it lasts.",
        ),
        "ergio.corteo.tris.shape": (
            "Un tris sono tre carte di una stessa magistratura o tre dello stesso gruppo armato.",
            "A tris is three cards of one magistratura or three of one armed group.",
        ),
        "ergio.corteo.tris.must_lay": (
            "Un tris di magistratura o gruppo non ancora in mostra va calato appena lo si ha, "
            "prima di ogni altra mossa.",
            "A tris of a magistratura or group not yet shown must be laid as soon as it is "
            "held, before any other move.",
        ),
        "ergio.corteo.tris.one_per_magistratura": (
            "Un solo tris per magistratura o gruppo armato (per parte).",
            "Only one tris per magistratura or armed group (per side).",
        ),
        "ergio.corteo.fourth.later_turn": (
            "La quarta carta di una magistratura si cala in un turno successivo al tris.",
            "A magistratura's fourth card is laid on a turn after its tris.",
        ),
        "ergio.corteo.fourth.max_four": (
            "Una magistratura ha al massimo quattro carte.",
            "A magistratura holds at most four cards.",
        ),
        "ergio.corteo.fourth.not_four_combattenti": (
            "Una magistratura non può avere quattro combattenti.",
            "A magistratura may not be four combattenti.",
        ),
        "ergio.corteo.add.shown_only": (
            "Si aggiunge una carta solo a una magistratura o a un gruppo già in mostra, "
            "dello stesso tipo.",
            "A card is added only to a magistratura or group already shown, of its own kind.",
        ),
        "ergio.corteo.hand_limit": (
            "A fine turno si hanno al massimo 12 carte in mano (9 in quattro, 7 in sei; "
            "nessun limite per i ragazzi).",
            "At the end of a turn a player holds at most 12 cards (9 with four, 7 with six; "
            "no limit in the children's game).",
        ),
        "ergio.corteo.arno.only_excess": (
            "Si gettano in Arno solo le carte oltre il limite della mano.",
            "Only the cards beyond the hand limit are thrown in the Arno.",
        ),
        "ergio.corteo.complete": (
            "Vince il Corteo chi mette in mostra per primo le sei magistrature e i tre "
            "gruppi armati; la fase finisce alla fine di quel turno.",
            "The Corteo goes to whoever first shows all six magistrature and the three armed "
            "groups; the phase ends at the end of that turn.",
        ),
        "ergio.corteo.dry": (
            "Se per un giro intero nessuno pesca (mazzi finiti), il Corteo finisce e lo vince "
            "chi ha più in mostra.",
            "If a whole round passes with nobody drawing (decks run dry), the Corteo ends and "
            "goes to the side that shows more.",
        ),
        "ergio.field.no_replace": (
            "Una carta messa in mostra non si sostituisce mai con una della mano.",
            "A card once shown is never replaced by one from the hand.",
        ),
        "ergio.battle.challenger": (
            "Sfida per primo chi ha vinto il Corteo, poi chi ha vinto lo scontro precedente; "
            "l'altro risponde.",
            "The Corteo winner challenges first, then the winner of the previous scontro; the "
            "other side responds.",
        ),
        "ergio.battle.own_magistratura": (
            "Si manda sul ponte una magistratura della propria parte.",
            "A side sends one of its own magistrature to the bridge.",
        ),
        "ergio.battle.once_each": (
            "Ogni magistratura combatte una sola volta.",
            "Each magistratura fights only once.",
        ),
        "ergio.battle.reinforce.slots": (
            "I rinforzi coperti sono al massimo due con il Magistrato e uno con il "
            "Caposchiera; senza di loro nessuno.",
            "At most two face-down reinforcements with a Magistrato and one with a "
            "Caposchiera; none without them.",
        ),
        "ergio.battle.reinforce.magistrato": (
            "I rinforzi del Magistrato valgono solo se combattenti di altre magistrature "
            "della parte.",
            "The Magistrato's reinforcements count only as combattenti of other magistrature "
            "of the side.",
        ),
        "ergio.battle.reinforce.caposchiera": (
            "Il rinforzo del Caposchiera vale solo se combattente della stessa magistratura.",
            "The Caposchiera's reinforcement counts only as a combattente of the same "
            "magistratura.",
        ),
        "ergio.battle.reinforce.bluff": (
            "Rinforzi non validi o senza forza contano zero ma si possono giocare per bluff.",
            "Invalid or forceless reinforcements count zero but may be played as a bluff.",
        ),
        "ergio.battle.capitano": (
            "Il Capitano aggiunge 5 punti forza.",
            "The Capitano adds 5 points of force.",
        ),
        "ergio.battle.spot.max_two": (
            "Una magistratura mai calata si crea sul momento con al massimo due carte coperte; "
            "contano solo i suoi combattenti.",
            "A magistratura never laid is made on the spot from at most two face-down cards; "
            "only its own combattenti count.",
        ),
        "ergio.battle.no_laying": (
            "In battaglia non si cala più nulla: niente tris, quarte carte o scambi.",
            "Nothing more is laid in battle: no tris, fourth cards or swaps.",
        ),
        "ergio.battle.force": (
            "Vince lo scontro la somma di forza maggiore.",
            "The greater total force wins the scontro.",
        ),
        "ergio.battle.tie.figures": (
            "A parità di forza decidono le figure calate (ordine secondo il regolamento scelto).",
            "On equal force the laid figures decide (order as the ruleset chooses).",
        ),
        "ergio.battle.tie.challenger": (
            "A parità anche di figure vince lo sfidante.",
            "If the figures are level too, the challenger wins.",
        ),
        "ergio.battle.keep": (
            "Chi vince lo scontro prende un punto e conserva la magistratura; quella del "
            "perdente va in Arno.",
            "The scontro's winner scores a point and keeps the magistratura; the loser's goes "
            "to the Arno.",
        ),
        "ergio.battle.draw": (
            "Dopo ogni scontro si pescano 2 carte a testa (1 a giocatore in quattro o sei) "
            "finché il mazzo dura.",
            "After each scontro each draws 2 cards (1 per player with four or six) while the "
            "deck lasts.",
        ),
        "ergio.battle.six": (
            "La battaglia è di sei scontri.",
            "The battle is six scontri.",
        ),
        "ergio.bella.force": (
            "Sul 3-3 la Bella Nazionale va alla forza maggiore delle magistrature conservate.",
            "At 3-3 the Bella Nazionale goes to the greater force of the kept magistrature.",
        ),
        "ergio.bella.figures": (
            "A parità di forza nella Bella vince chi ha più figure conservate.",
            "On equal force in the Bella, more kept figures win.",
        ),
        "ergio.bella.corteo": (
            "A parità anche di figure la Bella va a chi ha vinto il Corteo.",
            "If the figures are level too, the Bella goes to the Corteo winner.",
        ),
        "ergio.summary.scontri_max": (
            "Una battaglia ha al massimo sei scontri.",
            "A battle has at most six scontri.",
        ),
        "ergio.summary.magistratura_twice": (
            "Una magistratura non può combattere due volte.",
            "A magistratura cannot fight twice.",
        ),
        "ergio.summary.magistratura_side": (
            "Ogni parte manda una delle proprie magistrature.",
            "Each side sends one of its own magistrature.",
        ),
        "ergio.summary.force_range": (
            "La forza di una parte in uno scontro è una che le figure calate possono "
            "raggiungere con le carte del mazzo.",
            "A side's force in a scontro is one its laid figures can reach with the deck's cards.",
        ),
        "ergio.summary.cards": (
            "Le carte di uno scontro sono quelle che una partita vera può dare: della propria "
            "parte, ciascuna una volta, ammesse dalle figure dove sono scritte.",
            "A scontro's cards are those a real game can give: of one's own side, each once, "
            "admitted by the figures where they are written.",
        ),
        "ergio.summary.force_mismatch": (
            "La forza scritta deve essere quella delle carte scritte.",
            "The force written must be the one of the cards written.",
        ),
        "ergio.adv.celatino.single": (
            "Nel gioco avanzato i Celatini si giocano uno alla volta, con il loro effetto, "
            "e non si calano a tris.",
            "In the advanced game Celatini are played one at a time, with their effect, and "
            "never laid as a tris.",
        ),
        "ergio.adv.celatino.target": (
            "Un Celatino getta in Arno la prima carta del mazzo avversario, una sua carta in "
            "mostra o una carta a caso della sua mano.",
            "A Celatino throws into the Arno the top card of the opposing deck, one of its "
            "shown cards or a random card of its hand.",
        ),
        "ergio.adv.guard.hand": (
            "Con le Guardie con Corazza in mostra la mano è protetta dai Celatini.",
            "With the Guardie con Corazza shown the hand is safe from Celatini.",
        ),
        "ergio.adv.guard.field": (
            "Con le Guardie senza Corazza in mostra il campo è protetto dai Celatini.",
            "With the Guardie senza Corazza shown the field is safe from Celatini.",
        ),
        "ergio.adv.special.only_advanced": (
            "Le carte speciali e i loro effetti esistono solo nel gioco avanzato.",
            "Special cards and their effects exist only in the advanced game.",
        ),
        "ergio.adv.special.generale": (
            "Il Generale giocato da solo dà un altro turno, con la sua pescata.",
            "The Generale played alone gives another turn, with its draw.",
        ),
        "ergio.adv.special.maestro": (
            "Il Maestro di Campo giocato da solo dà una carta in più nel limite della mano, "
            "finché resta in mostra.",
            "The Maestro di Campo played alone adds one card to the hand limit while it "
            "stays shown.",
        ),
        "ergio.adv.special.trombettiere": (
            "Il Trombettiere giocato da solo prende una carta a scelta dal proprio mazzo, "
            "poi il mazzo si rimescola.",
            "The Trombettiere played alone takes a chosen card from one's own deck, then the "
            "deck is reshuffled.",
        ),
        "ergio.adv.special.tamburino": (
            "Il Tamburino giocato da solo riprende in mano una carta della propria parte "
            "gettata in Arno.",
            "The Tamburino played alone takes back into hand a card of one's own side from "
            "the Arno.",
        ),
        "ergio.adv.special.luogotenente": (
            "Il Luogotenente Alfiere di Parte giocato da solo riprende in mano una carta "
            "propria in mostra.",
            "The Luogotenente Alfiere di Parte played alone takes back into hand one of "
            "one's own shown cards.",
        ),
        "ergio.adv.patch.kind": (
            "Generale e Maestro di Campo completano solo le Guardie; Trombettiere, Tamburino "
            "e Luogotenente solo le magistrature; in tris almeno una carta vera.",
            "Generale and Maestro di Campo complete only the Guardie; Trombettiere, Tamburino "
            "and Luogotenente only magistrature; a tris holds at least one real card.",
        ),
        "ergio.adv.swap": (
            "Un Trombettiere, Tamburino o Luogotenente che rattoppa una magistratura si scambia "
            "con una carta vera di quella e torna in mano; Generale e Maestro di Campo che "
            "completano le Guardie restano.",
            "A Trombettiere, Tamburino or Luogotenente patching a magistratura is swapped for "
            "a real card of it and goes back to the hand; Generale and Maestro di Campo "
            "completing the Guardie stay.",
        ),
        "ergio.adv.sabotage": (
            "Chi vince il Corteo con almeno tre Celatini in mostra può gettare le prime tre "
            "carte del mazzo avversario.",
            "The Corteo winner with at least three Celatini shown may discard the top three "
            "cards of the opposing deck.",
        ),
        "ergio.adv.battle.celatino": (
            "Un Celatino sotto il Magistrato toglie il combattente più debole avversario.",
            "A Celatino under the Magistrato removes the weakest opposing combattente.",
        ),
        "ergio.adv.battle.guard": (
            "Una Guardia sotto il Magistrato annulla un Celatino avversario.",
            "A Guardia under the Magistrato cancels one opposing Celatino.",
        ),
        "ergio.multi.turn_order": (
            "In quattro o sei le parti si alternano e in ogni parte il turno passa al "
            "compagno successivo.",
            "With four or six the sides alternate and within a side the turn passes to the "
            "next partner.",
        ),
        "ergio.multi.one_tris_per_side": (
            "Una magistratura o un gruppo calato da un compagno non si cala più nella parte.",
            "A magistratura or group laid by one partner cannot be laid again by the side.",
        ),
        "ergio.multi.draw.source": (
            "In quattro o sei ognuna delle due carte si pesca dal mazzo o dalla pila comune.",
            "With four or six each of the two cards is drawn from the deck or the common pile.",
        ),
        "ergio.multi.pile.max_two": (
            "Nella pila comune si passano al massimo due carte per turno.",
            "At most two cards a turn are passed through the common pile.",
        ),
        "ergio.multi.pile.draw_top": (
            "Dalla pila comune si pesca solo la carta in cima, se è della propria parte "
            "(con entrambe le Guardie in mostra, la prima propria dall'alto).",
            "From the common pile only the top card is drawn, if it is one's own side's "
            "(with both Guardie shown, the topmost own card).",
        ),
        "ergio.multi.pile.celatino": (
            "Un Celatino può gettare in Arno una carta avversaria della pila comune, anche "
            "non in cima.",
            "A Celatino may throw into the Arno an opposing card of the common pile, even "
            "below the top.",
        ),
        "ergio.multi.battle.common_hand": (
            "In battaglia le mani dei compagni sono una sola mano comune della parte.",
            "In battle the partners' hands are one common hand of the side.",
        ),
        "ergio.multi.battle.specials_zero": (
            "In quattro o sei Celatini, Guardie e speciali valgono zero come rinforzo.",
            "With four or six Celatini, Guardie and specials count zero as reinforcement.",
        ),
        "ergio.summary.challenger": (
            "Lo sfidante è il vincitore del Corteo, poi quello dello scontro precedente.",
            "The challenger is the Corteo winner, then the previous scontro's winner.",
        ),
        "ergio.summary.match_end": (
            "Dopo il quarto scontro vinto da una parte non se ne scrivono altri, se non fino al "
            "sesto quando si combattono tutti e sei.",
            "After a side's fourth win no further scontro is written, unless all six are "
            "fought and the summary goes on to the sixth.",
        ),
    },
)
