"""Phrase bank 'formal'. A senior professional writing formally and indirectly: full sentences, hedged,
passive voice, polite circumlocution, British spelling, the odd slip. Written from the shared README and dev.py
only, with no names, topics or sentences in common with the other banks. Placeholders: {v}/{old} slot values,
{topic}, thread entities, {me} the user, {n}/{n2}/{big}/{few} fresh numbers, {day}, {due}, {stranger}/{org}
(one-off requests only)."""

NAME = "formal"

USERS = ["Margaret Ashworth-Leigh", "Cornelius Featherstonehaugh", "Philippa Drummond-Hay", "Anselm Whitcombe",
         "Rosalind Kettleby", "Ignatius Blaydon", "Henrietta Wolstenholme", "Bartholomew Quaile",
         "Evangeline Marchbank", "Lionel Ffoulkes", "Theodora Pennycuick", "Augustin Delahaye",
         "Winifred Okonjo-Barr", "Septimus Langridge", "Beatrix Colquhoun", "Aldric Fenwick-Shaw"]

PEOPLE = ["Ottoline", "Crispin", "Ethelinda", "Ambrose", "Leocadia", "Fitzroy", "Ermengarde", "Fulbert",
          "Seraphina", "Quintus", "Wilhelmina", "Eustace", "Araminta", "Lysander", "Hildegund", "Wystan",
          "Honoria", "Godfrey", "Sidonie", "Cosmo", "Isadora", "Ptolemy", "Philomena", "Aurelio", "Benedikta",
          "Casimir", "Drusilla", "Evander", "Florentyna", "Ismay", "Jocasta", "Lancelot", "Brangwen", "Norbert",
          "Oriel", "Peregrine", "Rosamund", "Sebastiano", "Tancred", "Valentina"]
STRANGERS = ["Mr. Penhaligon", "Mrs. Verity Scrope", "Professor Ingleby", "Dr. Oyelaran", "Sir Julian Brackley",
             "Ms. Fenella Gault", "Canon Thwaite", "Mr. Deverill", "Dr. Hatherleigh", "Mrs. Ombersley",
             "Professor Nkemelu", "Mr. Trelawney-Boyd"]
ORGS = ["Whitlow & Crane LLP", "Harcourt Mutual", "Beaumaris Trust", "Stanegate Assurance", "Old Vellum Bank",
        "Carrowmore Estates", "Fennick Water", "Ravensworth Borough Council", "Greystoke Couriers"]
FUNDERS = ["Aldermoor Foundation", "Pellucid Trust", "Marlowe Fund", "Caldicott Foundation", "Wexcombe Trust",
           "Harrowgate Research Council"]
INSTITUTIONS = ["University of Kelderwick", "Fairhaven Polytechnic", "Sandmere Institute", "Carrick Observatory",
                "Ballantrae Marine Station", "Ostrander College"]
PREMISES = ["Tannery Court", "Carlisle Row", "Wharfside Chambers", "the Old Customs House", "Sheldrake House",
            "Chandlers' Wharf", "Belvoir Quay"]
REMOVERS = ["Pickering & Gaunt", "Cartwright Relocations", "Hollins Moving Services", "Steadfast Removals",
            "Ashby Carriers"]
GALA_VENUES = ["the Stowcliffe Orangery", "Kingsbridge Assembly Rooms", "Hallam Guildhall", "the Lantern Ballroom",
               "Bellweather Pavilion", "Cresswell Conservatory"]
CATERERS = ["Sorrel & Thyme", "Marchpane Catering", "Greenwood Table", "Ellery Hospitality", "Quince Kitchen"]
CHARITIES = ["Lanthorn Literacy Trust", "Harewood Hospice", "Saltwater Rescue", "Kindling Youth Foundation"]
AUDITORS = ["Hendry Marsh", "Tolliver Rees", "Garside Bamford", "Pryce Oakenfold", "Wakefield Strachan"]
THEMES = ["Archives and Absence", "Coastal Memory", "The Afterlife of Maps", "Paper Empires",
          "Silence in the Record", "Ruins and Renewal"]
ROOMS = ["the Abercorn Room", "the Tyndale Lecture Theatre", "the Halsey Seminar Suite", "the Mountjoy Auditorium",
         "the Cloister Room", "the Ashmole Gallery"]
LAWFIRMS = ["Ridley Fairbairn", "Mottram Lisle", "Ashcombe Vane", "Gorringe & Pask", "Thackeray Boult"]
WORKS = ["Fauré Requiem", "Haydn Creation", "Duruflé Requiem", "Dream of Gerontius", "Dixit Dominus",
         "Brahms German Requiem", "Monteverdi Vespers"]
CHURCHES = ["St Aldhelm's", "Holy Rood Minster", "St Ebba's", "St Wilfrid's Priory", "All Hallows Tenterden"]
TOWNS = ["Ludlow", "Harrogate", "Dorchester", "Berwick", "Stamford", "Hexham"]
COLLEGES = ["Quenby College", "the Pardoe Institute", "St Ninian's College", "the Ravel Centre"]
DOGS = ["Horace", "Montague", "Bosun", "Archibald"]

PERSONAL_ENTS = dict(spouse="PEOPLE", sibling="PEOPLE", town="TOWNS", college="COLLEGES", dog="DOGS")

THREADS = [
    dict(
        name="research grant bid", short=["the bid", "the grant application", "the {funder} submission", "the proposal"],
        ents=dict(funder="FUNDERS", pi="PEOPLE", officer="PEOPLE", dean="PEOPLE", postdoc="PEOPLE"),
        slots=[
            dict(id="bid_deadline", kind="date", type="plan", topic="the {funder} submission deadline",
                 q=["By what date must the {funder} proposal be submitted?", "When is the {funder} bid due?"],
                 say=["the {funder} proposal is to be submitted by {v}",
                      "the deadline set by the {funder} falls on {v}",
                      "it has been agreed internally that the bid goes in on {v}",
                      "our submission to the {funder} is expected no later than {v}"]),
            dict(id="bid_sum", kind="number", num=(180, 950), fmt=["£{},000", "£{}k"], type="decision",
                 topic="the sum requested",
                 q=["How much are we requesting from the {funder}?", "What is the total sum requested in the bid?"],
                 say=["the sum requested from the {funder} is {v}", "we shall be asking the {funder} for {v}",
                      "the bid has been costed at {v} in total", "{v} is the figure that will go before the panel"]),
            dict(id="person_months", kind="number", num=(14, 72), fmt=["{} person-months"], type="knowledge",
                 topic="the staffing allocation",
                 q=["How much research staff time has been budgeted in the bid?",
                    "What staffing allocation does the proposal carry?"],
                 say=["the proposal carries {v} of research staff time", "staffing has been budgeted at {v}",
                      "{v} of effort have been written into the bid"]),
            dict(id="partner_inst", kind="name", pool="INSTITUTIONS", type="relationship",
                 topic="the partner institution",
                 q=["Which institution is partnering with us on the bid?", "Who is our partner on the {funder} proposal?"],
                 say=["the {v} has agreed to come in as our partner", "we are partnering with the {v} on the bid",
                      "the partner institution is to be the {v}"]),
            dict(id="internal_reviewer", kind="name", pool="PEOPLE", type="relationship",
                 topic="the internal reviewer",
                 q=["Who is conducting the internal review of the bid?", "Who has been asked to review the proposal internally?"],
                 say=["{v} has kindly agreed to act as internal reviewer", "the internal review is being undertaken by {v}",
                      "{v} will read the proposal before it leaves the building"]),
        ],
        facts=[("relationship", "{pi} is to be named as principal investigator on the {funder} bid"),
               ("decision", "it was resolved that the fieldwork component be dropped, as the panel tends to regard it as speculative"),
               ("event", "the outline stage was passed on {day}, which came as something of a relief"),
               ("knowledge", "the {funder} customarily takes some months to reach a decision"),
               ("relationship", "{officer} in the research office is handling the costings"),
               ("plan", "a mock panel is to be convened a fortnight before submission"),
               ("preference", "I should much prefer the case for support to be written in plain English rather than jargon"),
               ("decision", "{dean} has indicated that the faculty will match-fund the equipment line"),
               ("event", "{postdoc} was offered a fellowship elsewhere and has regrettably declined to join us")],
        loops=[dict(acts=["obtain the letter of support from {dean}", "secure {dean}'s letter of support"],
                    opens=["the letter of support from {dean} has yet to materialise",
                           "we are still without {dean}'s letter of support, and that one is mine to chase"],
                    done=["{dean}'s letter of support is now on file", "the letter from {dean} arrived this morning, duly signed"]),
               dict(acts=["draft the data management plan", "write up the data management plan"],
                    opens=["the data management plan remains with me"],
                    done=["the data management plan has been drafted and circulated",
                          "a complete draft of the data management plan now sits in the shared folder"]),
               dict(acts=["send the costings to {officer} for approval", "have {officer} approve the costings"],
                    opens=["{officer} has not yet seen the costings, which is an omission on my part"],
                    done=["{officer} has approved the costings without amendment", "the costings are with {officer}, who has signed them off"]),
               dict(acts=["revise the case for support in light of {pi}'s comments",
                          "rework the case for support along the lines {pi} suggested"],
                    opens=["responsibility for revising the case for support rests with me"],
                    done=["the case for support has been revised and {pi} is content with it",
                          "the revised case for support went back to {pi} on {day}"])],
        asks=[("what, in your view, distinguishes a competitive case for support?",
               "Usually a clearly stated question, a credible method tied to it, evidence that the team can deliver, "
               "and a plain account of why the work matters now."),
              ("how ought one to handle a reviewer who is plainly hostile?",
               "Respond to the substance rather than the tone, concede what is fair, and answer each point briefly with "
               "evidence; panels notice a measured reply."),
              ("I confess the budget justification section fills me with dread", "It is often the least loved part. "
               "Taking each line in turn and stating why it is needed usually makes it manageable.")],
        maybe=["were the bid to succeed, we should need a great deal more office space, though that is some way off",
               "one could, in principle, apply to every funder in the land, but I doubt the wisdom of it",
               "remind me, what was the name of the panel chair who was so taken with bibliometrics?"],
    ),
    dict(
        name="office relocation", short=["our move", "the relocation project", "the office move", "the new premises"],
        ents=dict(facilities="PEOPLE", agent="PEOPLE", md="PEOPLE", it_lead="PEOPLE"),
        slots=[
            dict(id="premises", kind="place", pool="PREMISES", type="decision", topic="the new premises",
                 q=["To which building are we relocating?", "Where are the new offices to be?"],
                 say=["we shall be relocating to {v}", "the lease has been agreed in principle for {v}",
                      "the firm is to move into {v}", "the new offices are to be at {v}"]),
            dict(id="relocation_date", kind="date", type="plan", topic="the moving date",
                 q=["When is the office move to take place?", "On what date do we move premises?"],
                 say=["the move is scheduled to take place on {v}", "we are due to take occupation on {v}",
                      "staff will work from the new building as of {v}"]),
            dict(id="desks", kind="number", num=(40, 180), fmt=["{} desks", "{} workstations"], type="knowledge",
                 topic="the number of desks provided",
                 q=["How many desks will the new office accommodate?", "How many workstations are being fitted out?"],
                 say=["the fit-out provides for {v}", "the floor plate will take {v}",
                      "we have been allotted {v} in the new space"]),
            dict(id="remover", kind="name", pool="REMOVERS", type="decision", topic="the removals firm",
                 q=["Which removals firm has been engaged?", "Who is carrying out the removal?"],
                 say=["{v} have been engaged to carry out the removal", "the removal has been entrusted to {v}",
                      "we have instructed {v} for the move"]),
            dict(id="rent", kind="number", num=(32, 95), fmt=["£{} per square foot", "£{} a square foot"],
                 type="decision", topic="the agreed rent",
                 q=["What rent has been agreed for the new offices?", "What is the rent per square foot?"],
                 say=["a rent of {v} has been agreed", "the landlord has accepted {v}",
                      "heads of terms put the rent at {v}"]),
        ],
        facts=[("relationship", "{facilities} is coordinating the move on the facilities side"),
               ("decision", "it has been decided that the archive will go into off-site storage rather than travel with us"),
               ("event", "the building survey was completed on {day}, and nothing untoward was found"),
               ("knowledge", "the landlord requires a deposit equivalent to a quarter's rent"),
               ("relationship", "{agent} at the letting agency is acting for us"),
               ("plan", "the partners' floor is to be vacated first, the remaining teams following the week after"),
               ("preference", "I would far rather we had fewer meeting rooms and a proper kitchen"),
               ("decision", "{md} has approved hot-desking for the support teams only"),
               ("knowledge", "the lift in the new building is rather small, which will slow the removal")],
        loops=[dict(acts=["return the signed lease to the landlord", "have the counterpart lease signed and returned"],
                    opens=["the signed lease has not yet gone back to the landlord, and that falls to me"],
                    done=["the signed lease is now with the landlord", "the landlord's solicitors have the executed lease"]),
               dict(acts=["obtain the surveyor's report", "chase the surveyor for the report"],
                    opens=["we have yet to receive the surveyor's report"],
                    done=["the surveyor's report arrived this morning", "the survey report is in hand and raises no concerns"]),
               dict(acts=["inform staff of the seating plan", "circulate the seating plan to staff"],
                    opens=["staff have not as yet been told where they are to sit"],
                    done=["the seating plan has been circulated to all staff", "staff now have the seating plan, and only {few} objections so far"]),
               dict(acts=["agree the network cut-over with {it_lead}", "settle the timing of the IT cut-over with {it_lead}"],
                    opens=["the matter of the IT cut-over remains with me and {it_lead}"],
                    done=["{it_lead} and I have fixed the cut-over for the evening before the move",
                          "the cut-over plan has been agreed with {it_lead}"])],
        asks=[("what ought one to include in a communication to staff about an office move?",
               "The date, what each person needs to pack and by when, where they will sit, how IT will work on the day, "
               "and whom to ask when something goes wrong."),
              ("is it customary to negotiate a rent-free period on a new lease?",
               "It is quite common, particularly on longer leases or where the tenant is funding the fit-out; a few "
               "months is a typical ask."),
              ("I find the whole business of moving offices rather wearing", "Understandably so. Breaking it into a "
               "short list of owners and dates tends to take some of the strain out of it.")],
        maybe=["were we to take the floor above as well, the costs would be quite out of the question",
               "I daresay someone will complain about the view whatever we do",
               "remind me, who was the firm that shreds confidential waste?"],
    ),
    dict(
        name="fundraising gala", short=["the gala evening", "the gala dinner", "the {charity} dinner"],
        ents=dict(charity="CHARITIES", chair="PEOPLE", patron="PEOPLE", volunteer="PEOPLE", auctioneer="PEOPLE"),
        slots=[
            dict(id="gala_venue", kind="place", pool="GALA_VENUES", type="plan", topic="the venue for the gala",
                 q=["Where is the {charity} gala to be held?", "Which venue has been secured for the gala?"],
                 say=["the gala is to be held at {v}", "{v} has been secured for the gala",
                      "we have reserved {v} for the evening"]),
            dict(id="gala_date", kind="date", type="event", topic="the gala date",
                 q=["On what date does the gala take place?", "When is the {charity} gala dinner?"],
                 say=["the gala will take place on {v}", "the dinner is fixed for {v}",
                      "invitations will give {v} as the date of the gala"]),
            dict(id="target", kind="number", num=(40, 250), fmt=["£{},000", "£{}k"], type="decision",
                 topic="the sum the gala is to raise",
                 q=["What sum is the gala expected to raise?", "What is the fundraising target for the evening?"],
                 say=["the trustees have set a target of {v}", "we hope the evening will bring in {v}",
                      "the aim is to clear {v} once costs are met"]),
            dict(id="ticket", kind="number", num=(85, 400), fmt=["£{} a ticket", "£{} per head"], type="decision",
                 topic="the price of a gala ticket",
                 q=["What is the price of a ticket to the gala?", "How much are tickets for the gala dinner?"],
                 say=["tickets are to be priced at {v}", "the committee settled on {v}",
                      "guests will be charged {v}"]),
            dict(id="caterer", kind="name", pool="CATERERS", type="decision", topic="the dinner's caterer",
                 q=["Who is catering the gala?", "Which caterer has been engaged for the dinner?"],
                 say=["{v} have been engaged to cater", "the catering has been placed with {v}",
                      "dinner will be provided by {v}"]),
        ],
        facts=[("relationship", "{chair} chairs the gala committee and expects a report from me each month"),
               ("relationship", "{patron} has graciously agreed to lend their name as patron of the evening"),
               ("decision", "it was agreed that there will be no raffle this year, only a silent auction"),
               ("event", "the previous gala was rather poorly attended owing to a rail strike"),
               ("knowledge", "around a third of last year's guests were corporate tables"),
               ("plan", "invitations are to be sent six weeks before the evening"),
               ("preference", "I would sooner keep the speeches brief; guests tire of them quickly"),
               ("relationship", "{volunteer} is marshalling the volunteers on the night"),
               ("event", "{auctioneer} kindly offered on {day} to conduct the auction without a fee")],
        loops=[dict(acts=["confirm the menu with the caterer", "settle the menu with the caterer"],
                    opens=["responsibility for the catering rests with me, and the menu is not yet settled"],
                    done=["the menu has been confirmed, with a vegetarian option throughout", "the caterer has signed off our choices for every course",
                          "the caterer now has our final menu"]),
               dict(acts=["write to {patron} about the welcome address", "ask {patron} to give a short welcome"],
                    opens=["I owe {patron} a letter about the welcome address"],
                    done=["{patron} has accepted and will say a few words of welcome",
                          "a reply came from {patron} on {day}; the welcome address is in hand"]),
               dict(acts=["secure the auction lots", "gather the lots for the silent auction"],
                    opens=["the auction is, I regret to say, still rather short of lots, and soliciting them is my department"],
                    done=["{few} lots have now been pledged for the auction", "the auction lots are catalogued and insured"]),
               dict(acts=["send the seating plan to the venue", "furnish the venue with the table plan"],
                    done=["the venue has the table plan", "the seating plan went to the venue manager yesterday"])],
        asks=[("how does one persuade a corporate sponsor to take a whole table?",
               "Lead with what the evening offers them: visibility with the right guests, a named acknowledgement, and a "
               "clear link to the cause; a personal approach from a trustee helps."),
              ("what is a sensible ratio of volunteers to guests at a dinner of this kind?",
               "Many organisers aim for roughly one volunteer for every table or two of guests, with a few floaters "
               "for registration and the auction."),
              ("I must say the sheer volume of correspondence is overwhelming", "That is very understandable. A shared "
               "tracker of who has been asked, who has replied and what is owed can lighten the load.")],
        maybe=["if every trustee brought a table we should be oversubscribed, though I do not hold my breath",
               "in an ideal world there would be a string quartet, but the budget will not stretch",
               "remind me, who was it that donated the hamper last time?"],
    ),
    dict(
        name="annual audit", short=["the audit work", "the year-end audit", "the accounts"],
        ents=dict(cfo="PEOPLE", controller="PEOPLE", trustee="PEOPLE"),
        slots=[
            dict(id="audit_firm", kind="name", pool="AUDITORS", type="decision", topic="the auditors",
                 q=["Which firm is auditing the accounts this year?", "Who have been appointed as auditors?"],
                 say=["{v} have been reappointed as auditors", "the audit has been awarded to {v}",
                      "the board appointed {v} to conduct this year's audit"]),
            dict(id="fieldwork", kind="date", type="plan", topic="the start of fieldwork",
                 q=["When does the audit fieldwork begin?", "When are the auditors due on site?"],
                 say=["fieldwork is due to commence on {v}", "the auditors are expected on site from {v}",
                      "the audit team will arrive on {v}"]),
            dict(id="materiality", kind="number", num=(25, 140), fmt=["£{},000", "£{}k"], type="knowledge",
                 topic="the materiality threshold",
                 q=["What materiality threshold are the auditors applying?", "At what level has materiality been set?"],
                 say=["materiality has been set at {v}", "the auditors are working to a materiality of {v}",
                      "anything under {v} is regarded as immaterial"]),
            dict(id="signing", kind="date", type="plan", topic="the signing of the accounts",
                 q=["When are the accounts to be signed?", "On what date will the board sign the accounts?"],
                 say=["the accounts are to be signed on {v}", "the board will approve and sign the accounts on {v}",
                      "signature of the accounts is expected on {v}"]),
            dict(id="audit_lead", kind="name", pool="PEOPLE", type="relationship", topic="the audit engagement partner",
                 q=["Who leads the audit engagement?", "Who is the engagement partner on the audit?"],
                 say=["{v} is the engagement partner", "the engagement is being led by {v}",
                      "{v} will front the audit on their side"]),
        ],
        facts=[("relationship", "{cfo} is the finance director and has the final word on the adjustments"),
               ("decision", "the board resolved to change the depreciation policy for the fleet this year"),
               ("event", "the interim audit concluded on {day} with only minor points raised"),
               ("knowledge", "the auditors typically need a fortnight's notice for any change in scope"),
               ("relationship", "{controller} prepares the trial balance and the supporting schedules"),
               ("plan", "the audit committee will meet a week before the accounts are signed"),
               ("preference", "I would rather we raised awkward issues with the auditors early than have them discovered"),
               ("relationship", "{trustee} chairs the audit committee")],
        loops=[dict(acts=["reply to the auditor's management letter", "draft our response to the management letter"],
                    opens=["the matter of the auditor's management letter remains with me"],
                    done=["our response to the management letter has been sent", "the auditors now hold our replies to each of their points",
                          "the management letter has been answered point by point"]),
               dict(acts=["provide the auditors with the fixed asset register", "send the asset register across to the auditors"],
                    opens=["the auditors are still awaiting the fixed asset register"],
                    done=["the auditors have the fixed asset register", "the asset register was uploaded to their portal on {day}"]),
               dict(acts=["brief {trustee} ahead of the audit committee", "give {trustee} a briefing before the committee meets"],
                    done=["{trustee} has been briefed and has no further questions",
                          "I spoke with {trustee} at some length; the committee papers are understood"]),
               dict(acts=["obtain the bank confirmation letters", "request the bank confirmations"],
                    opens=["neither bank has yet confirmed the year-end balances; I said I would pursue them"],
                    done=["the bank confirmations came back on {day}", "both banks have now confirmed the balances"])],
        asks=[("what typically goes into a letter of representation?",
               "Management's confirmation that the accounts are complete, that all records and information have been "
               "provided, that related parties are disclosed, and that there are no unrecorded liabilities."),
              ("how ought one to respond when the auditors propose an adjustment one disagrees with?",
               "Ask for their reasoning in writing, set out your own with the supporting evidence, and if it remains "
               "unresolved, let it go to the audit committee with both views stated."),
              ("I find the year end rather trying, if I am honest", "It is a demanding stretch for most finance "
               "teams. A clear timetable with agreed deliverables tends to ease it.")],
        maybe=["were we to change auditors, the tender alone would take the better part of a year",
               "I daresay the auditors would like a tidier filing system, as would we all",
               "remind me, which of the banks was it that lost our confirmation request?"],
    ),
    dict(
        name="symposium", short=["the symposium", "the colloquium", "the symposium arrangements"],
        ents=dict(coorg="PEOPLE", speaker="PEOPLE", admin="PEOPLE"),
        slots=[
            dict(id="theme", kind="thing", pool="THEMES", type="decision", topic="the symposium theme",
                 q=["What is the theme of the symposium?", "Under what title is the symposium being advertised?"],
                 say=["the symposium is to take \"{v}\" as its theme", "the programme committee chose \"{v}\"",
                      "the call for papers will go out under the title \"{v}\""]),
            dict(id="symp_date", kind="date", type="event", topic="the symposium date",
                 q=["When is the symposium to be held?", "On what date does the symposium open?"],
                 say=["the symposium opens on {v}", "proceedings will begin on {v}", "the symposium is set for {v}"]),
            dict(id="delegates", kind="number", num=(60, 240), fmt=["{} delegates", "{} registrants"],
                 type="knowledge", topic="the number registered",
                 q=["How many delegates have registered for the symposium?", "How large is the symposium audience?"],
                 say=["we have {v} so far", "registration stands at {v}", "{v} have signed up to attend"]),
            dict(id="room", kind="place", pool="ROOMS", type="plan", topic="the symposium room",
                 q=["In which room is the symposium taking place?", "Which room has been booked for the sessions?"],
                 say=["the sessions will be held in {v}", "{v} has been booked for both days",
                      "we have been allocated {v}"]),
            dict(id="keynote", kind="name", pool="PEOPLE", type="relationship", topic="the keynote speaker",
                 q=["Who is delivering the keynote?", "Who has been invited to give the opening lecture?"],
                 say=["{v} has accepted our invitation to give the keynote", "the opening lecture will be given by {v}",
                      "{v} is to deliver the keynote address"]),
        ],
        facts=[("relationship", "{coorg} and I are jointly convening the symposium"),
               ("decision", "it was agreed that papers should be pre-circulated so that sessions can be given over to discussion"),
               ("event", "the call for papers closed on {day}, and the response has been most encouraging"),
               ("knowledge", "the department can subsidise travel for postgraduate speakers only"),
               ("plan", "a conference dinner is planned for the first evening"),
               ("preference", "I am not in favour of parallel sessions; they fragment the conversation"),
               ("relationship", "{admin} in the departmental office is taking bookings"),
               ("event", "{speaker} has withdrawn, owing to a prior commitment overseas")],
        loops=[dict(acts=["confirm the keynote's travel arrangements", "arrange travel and accomodation for the keynote"],
                    opens=["the keynote's travel arrangements are mine to see to"],
                    done=["the keynote's train and hotel are booked", "travel for the keynote has been arranged and confirmed"]),
               dict(acts=["circulate the draft programme to {coorg}", "send {coorg} the provisional programme"],
                    opens=["{coorg} is waiting on me for the draft programme"],
                    done=["{coorg} now has the draft programme", "the provisional programme went to {coorg} on {day}"]),
               dict(acts=["approach a publisher about the proceedings", "sound out a publisher regarding an edited volume"],
                    opens=["we have yet to hear from any publisher about the proceedings, and I did say I would pursue it"],
                    done=["a university press has expressed interest in the proceedings",
                          "the publisher has asked for a formal proposal for the volume"])],
        asks=[("how long should one allow for discussion after each paper?",
               "If papers are pre-circulated, a short summary followed by a generous discussion works well; otherwise "
               "a third of the slot for questions is a reasonable rule."),
              ("what is the most tactful way of declining a submission?",
               "Thank the author for their interest, state briefly that the programme could not accommodate it, and, "
               "where you can, point them towards a more suitable venue."),
              ("I find chairing sessions rather nerve-wracking", "Many people do. Having a question of your own ready "
               "for each paper, and a clear eye on the clock, takes much of the anxiety away.")],
        maybe=["were it to become an annual event, we should need a proper steering committee",
               "one might stream the sessions online, though I have my doubts about the sound",
               "remind me, which hotel was it that overcharged the speakers last time?"],
    ),
    dict(
        name="estate administration", short=["the estate", "my late cousin's estate", "probate", "the probate matter"],
        ents=dict(late="PEOPLE", solicitor="PEOPLE", agent_house="PEOPLE"),
        slots=[
            dict(id="law_firm", kind="name", pool="LAWFIRMS", type="decision", topic="the solicitors",
                 q=["Which solicitors are acting on the estate?", "Who is handling the probate for us?"],
                 say=["we have instructed {v} to act on the estate", "{v} are handling the probate",
                      "the estate is in the hands of {v}"]),
            dict(id="valuation", kind="number", num=(280, 990), fmt=["£{},000", "£{}k"], type="knowledge",
                 topic="the probate valuation of the house",
                 q=["At what figure was the house valued for probate?", "What is the probate valuation of the house?"],
                 say=["the house has been valued for probate at {v}", "the valuer put the house at {v}",
                      "the probate value of the property is {v}"]),
            dict(id="completion", kind="date", type="plan", topic="the completion date on the sale",
                 q=["When does the sale of the house complete?", "What is the completion date for the house sale?"],
                 say=["completion on the house is set for {v}", "the sale is expected to complete on {v}",
                      "the buyers have agreed to complete on {v}"]),
            dict(id="coexecutor", kind="name", pool="PEOPLE", type="relationship", topic="my co-executor",
                 q=["Who is acting as co-executor with me?", "Who is the other executor of the will?"],
                 say=["{v} is named as co-executor alongside me", "I share the executorship with {v}",
                      "the other executor is {v}"]),
        ],
        facts=[("event", "my cousin {late} died in the spring, and I was named as executor"),
               ("relationship", "{solicitor} is the solicitor with conduct of the matter"),
               ("decision", "it has been decided that the house should be sold rather than let"),
               ("knowledge", "the probate registry is said to be taking several weeks to issue grants at present"),
               ("plan", "the contents of the house are to be cleared before the buyers' survey"),
               ("relationship", "{agent_house} at the estate agency is handling the sale"),
               ("preference", "I would prefer that the family portraits go to my sibling {sibling} rather than to auction"),
               ("event", "the grant of probate was issued on {day}, somewhat sooner than expected")],
        loops=[dict(acts=["send the death certificates to the building society", "supply the building society with copies of the death certificate"],
                    opens=["the building society still awaits the death certificate, and the onus is on me to provide it"],
                    done=["the building society has the certified copies", "the certificates were posted to the building society and have been received"]),
               dict(acts=["write to {solicitor} about the outstanding utility bills", "let {solicitor} know about the unpaid utility accounts"],
                    opens=["could you make a note that I owe {solicitor} a reply about the utility bills?"],
                    done=["{solicitor} now has the details of the utility accounts", "the utility bills have been passed to {solicitor}"]),
               dict(acts=["arrange the house clearance", "book the clearance of the house"],
                    opens=["the house clearance is still unarranged, and it is for me to organise"],
                    done=["the house has been cleared", "nothing now remains in the house but the carpets", "the clearance firm came on {day} and the house is now empty"])],
        asks=[("what are an executor's principal duties, broadly speaking?",
               "To identify and value the estate, obtain the grant, pay debts and any tax, keep proper accounts, and "
               "then distribute what remains in line with the will."),
              ("is it usual for solicitors to charge a percentage of the estate?",
               "Some do, others charge by the hour or a fixed fee; it is reasonable to ask for an estimate in writing at "
               "the outset."),
              ("I find sorting through the papers rather affecting", "That is entirely natural. It may help to do it "
               "in short sittings, and perhaps with someone else present.")],
        maybe=["were the house to be let instead, it would keep me busy for years",
               "I suppose I ought to make a will of my own, now that I think of it",
               "remind me, what was the name of the valuer who came out for the piano?"],
    ),
    dict(
        name="choral concert", short=["the society's concert", "the choir", "the spring concert", "rehearsals"],
        ents=dict(conductor="PEOPLE", accompanist="PEOPLE", choirsec="PEOPLE"),
        slots=[
            dict(id="work", kind="thing", pool="WORKS", type="plan", topic="the main work",
                 q=["Which work is the choir performing?", "What is the principal piece on the programme?"],
                 say=["the main work this season is the {v}", "we are to perform the {v}",
                      "the committee chose the {v} for the concert"]),
            dict(id="perf_date", kind="date", type="event", topic="the date of the performance",
                 q=["When is the concert?", "On what date does the choir perform?"],
                 say=["the concert takes place on {v}", "the choir sings on {v}", "the date of the concert is {v}"]),
            dict(id="concert_venue", kind="place", pool="CHURCHES", type="plan", topic="the concert's venue",
                 q=["Where will the performance be given?", "In which church does the choir perform?"],
                 say=["the concert is to be held at {v}", "we shall be singing at {v}",
                      "{v} has offered us the use of the nave"]),
            dict(id="rehearsals", kind="number", num=(11, 28), fmt=["{} rehearsals"], type="knowledge",
                 topic="the rehearsal count",
                 q=["How many rehearsals are scheduled before the concert?", "How many rehearsals remain in the schedule?"],
                 say=["the schedule allows for {v}", "we have {v} before the performance",
                      "{v} have been pencilled in"]),
            dict(id="soloist", kind="name", pool="PEOPLE", type="relationship", topic="the soprano soloist",
                 q=["Who is singing the soprano solos?", "Who has been engaged as soprano soloist?"],
                 say=["{v} has been engaged as soprano soloist", "the soprano solos will be sung by {v}",
                      "{v} is to take the soprano part"]),
        ],
        facts=[("identity", "I have sung second bass with the choral society for many years"),
               ("relationship", "{conductor} is our musical director"),
               ("relationship", "{accompanist} accompanies at rehearsals and is most patient with us"),
               ("preference", "I much prefer singing from my own marked copy rather than a hired score"),
               ("event", "the sectional on {day} went rather better than I had feared"),
               ("knowledge", "the church is bitterly cold in the evenings, so one must dress warmly"),
               ("decision", "the committee resolved that the concert be given in aid of the organ fund")],
        loops=[dict(acts=["learn the fugue from memory", "get the fugue memorised"],
                    opens=["I am not yet secure in the fugue, and it is for me to put that right"],
                    done=["the fugue is now firmly in my head", "I can sing the fugue without the copy at last"]),
               dict(acts=["sell my allocation of tickets", "dispose of my share of the concert tickets"],
                    done=["my allocation of tickets has been sold", "{few} tickets went to colleagues, and the rest to neighbours"]),
               dict(acts=["pay my subscription to {choirsec}", "settle my subscription with {choirsec}"],
                    opens=["my subscription to the society remains unpaid, which {choirsec} will have noticed"],
                    done=["{choirsec} has recieved my subscription", "my subscription is paid up"])],
        asks=[("how does one keep the voice in good order through a week of rehearsals?",
               "Plenty of water, sensible rest, a gentle warm-up before each rehearsal, and avoiding shouting over "
               "noise in the days beforehand."),
              ("what is the best way to memorise a long choral line?",
               "Work in short phrases, sing them aloud from memory soon after learning them, and return to them the "
               "next day before moving on."),
              ("I fear I shall never master the top of the bass line", "Most basses have a note or two that resist. "
               "Lightening the tone as you approach it, rather than pushing, usually helps.")],
        maybe=["if the whole society turned up to every rehearsal I should faint from surprise",
               "I have sometimes thought of taking singing lessons, though never quite found the time",
               "remind me, which conductor was it who made us stand for the entire rehearsal?"],
    ),
]

# --- corrections: (cue, frame, value kinds it suits (empty: any), same session / later / any) ---------------
CORRECTIONS = [
    ("explicit", "I must correct myself: {say}, not {old}", (), "any"),
    ("explicit", "For the avoidance of doubt, {topic} is {v} and not {old}", (), "any"),
    ("explicit", "A correction regarding {topic}, if I may: it should read {v}", (), "any"),
    ("actually", "On reflection, {say}", (), "any"),
    ("actually", "In point of fact, {say}", (), "any"),
    ("actually", "Having looked again at my notes, it transpires that {say}", (), "same"),
    ("misspoke", "Forgive me, I gave you the wrong figure a moment ago; {say}", ("number",), "same"),
    ("misspoke", "I misstated that earlier. {Say}", (), "any"),
    ("misspoke", "My apologies, that was an error on my part: {say}", (), "same"),
    ("misspoke", "That was a slip of the pen; {say}", (), "same"),
    ("change", "Please disregard what I said previously about {topic}; {say}", (), "any"),
    ("change", "The position has altered: {say}, rather than {old} as previously indicated", (), "later"),
    ("change", "Following further discussion, {say}", (), "later"),
    ("change", "The earlier arrangement has been superseded, and {say}", (), "later"),
    ("moved", "{Topic} has now been put back to {v}", ("date",), "later"),
    ("moved", "Please disregard the earlier date; it is now {v}", ("date",), "later"),
    ("moved", "It has proved necessary to shift {topic} to {v}", ("date", "place"), "later"),
    ("is-now", "{Topic} now stands at {v}", ("number",), "later"),
    ("is-now", "{Topic} is henceforth to be {v}", (), "later"),
    ("is-now", "{Topic} has been revised to {v}", (), "later"),
    ("is-now", "I am informed that {topic} is now {v} rather than {old}", (), "later"),
    ("scratch", "Kindly strike out what I told you about {topic}. {Say}", (), "any"),
    ("scratch", "Please set aside my last remark; {say}", (), "same"),
    ("implicit", "{Say}", (), "later"),
    ("implicit", "I spoke with the parties concerned this morning. {Say}", (), "later"),
    ("implicit", "As matters now stand, {say}", (), "later"),
    ("implicit", "It has since been confirmed that {say}", (), "later"),
    ("implicit", "Further to our earlier exchange, {say}", (), "later"),
    ("updated", "By way of an update, {say}", (), "later"),
    ("updated", "An update on {topic}: it has gone from {old} to {v}", (), "later"),
    ("updated", "The revised position on {topic} is {v}", (), "later"),
]

LOOP_OPEN = ["I shall {act} {due}", "it now falls to me to {act} {due}", "I will endeavour to {act} {due}",
             "could you make a note that I am to {act}?", "would you be so kind as to remind me to {act} {due}?",
             "I have undertaken to {act} {due}", "please record that I must {act}",
             "I ought to {act} {due}, and it has not yet been done", "it has been left to me to {act}",
             "should it slip my mind, do remind me that I need to {act}",
             "I gave an assurance that I would {act} {due}", "I am expected to {act} {due}",
             "kindly keep a note that I have yet to {act}", "do remind me, should I fail to {act} {due}",
             "I am under an obligation to {act} {due}",
             "I have agreed to {act} {due}; please hold me to it",
             "I shall make it my business to {act} {due}", "the intention is that I {act} {due}"]
DUES = ["by close of business on Friday", "before the week is out", "ahead of Monday's meeting",
        "by Thursday at the latest", "in the course of next week", "before Saturday", "by tomorrow morning",
        "at the earliest opportunity", "before the board next meets"]

ACK = ["Very good.", "Understood entirely.", "Duly noted.", "That seems entirely sensible.", "Thank you for letting me know.",
       "I have made a note of it.", "Certainly - is there anything further on that point?",
       "That is helpful to know.", "Noted, thank you.", "Quite so. Shall I do anything with that?"]
ACK_VALUE = ["Noted: {topic} is {v}.", "Thank you - I have {topic} as {v}.", "Very good, {v} for {topic}.",
             "I shall bear in mind that {topic} is {v}."]
ACK_CHANGE = ["Thank you, I have amended {topic} to {v}.", "Understood - {v}, not {old}.",
              "I have revised {topic} from {old} to {v}.", "Noted; I shall work from {v} henceforth."]
ACK_TODO = ["I have added that to your list of outstanding items.", "That is now recorded as a task for you.",
            "Noted as outstanding.", "I shall keep that among your open items."]
ACK_DONE = ["Excellent - I shall mark that as complete.", "Very good, that item is now closed.",
            "Splendid; one fewer matter outstanding.", "Thank you, I have struck that off your list."]

OPENERS = ["Good morning.", "Good afternoon.", "Forgive the intrusion, I have a few matters to raise",
           "I wonder if I might return to {short}", "A brief word about {short}, if I may",
           "Apologies for the delay in coming back to you", "Good evening; it has been a long day",
           "Might we resume where we left off?", "Regarding {short}, then", "Hello again.",
           "Where had we got to?", "I should like to think aloud for a moment, if you will indulge me"]
GREETINGS = ["Good morning, {me}. How may I help?", "Hello, {me}. What would you like to discuss?",
             "Of course - please go ahead.", "Certainly, I am at your disposal.", "Welcome back. What is on the agenda?",
             "Good to hear from you. Please proceed."]
CLOSERS = ["That will be all for the present, thank you", "Thank you, that is most helpful",
           "I must leave it there, I am afraid", "Very good, we shall speak again", "That covers everything for now",
           "I am much obliged"]
GOODBYES = ["Not at all.", "Do let me know if anything further arises.", "Until next time, {me}.",
            "It was a pleasure.", "Good day."]
FILLERS = [("Very well", "Please, by all means."), ("Give me a moment to gather my thoughts", "Please take your time."),
           ("Excuse me, the telephone", "Not at all, I shall wait."),
           ("Apologies, I was called into a meeting", "No apology needed; I am still here."),
           ("Indeed", "Quite."), ("I see", "Very good."),
           ("I have quite lost my thread", "We were discussing {short}."), ("Thank you kindly", "You are most welcome.")]
RECAP_ASKS = ["would you be good enough to summarise where matters stand on {short}?", "a brief summary, if you would?",
              "where have we got to with {short}, in a sentence or two?", "might I have a précis of the position?"]
RECAP_TODO = ["Items outstanding: {todo}", "Still to be attended to: {todo}", "Remaining with you: {todo}"]
RECAP = ["To summarise {short}: {body}.", "The position, as I understand it: {body}.", "Briefly - {body}.",
         "Matters stand thus: {body}."]
LEADS = ["by way of an update on {short}, ", "as regards {short}, ", "for your records, ", "it may interest you that ",
         "you may wish to note that "]
LOWER_OK = (r"(?:We|The|Our|My|It|Please|Could|Would|Kindly|Following|Having|On|In|As|By|An|A|Forgive|For|"
            r"Should|Responsibility|Staff|Heads|Invitations|Anything|Proceedings|Registration|Completion|Materiality|"
            r"Fieldwork|Signature|Tickets|Dinner|Guests|Staffing|Both)\b")
JOINERS = [" Furthermore, ", " I might add that ", " Additionally, ", " And, while I think of it, "]

PERSONAL = [("identity", "I am deputy director of {college}, for my sins"),
            ("identity", "I live just outside {town}"),
            ("relationship", "{spouse}, my other half, is a retired magistrate"),
            ("relationship", "my elder sibling {sibling} has lately moved back from abroad"),
            ("preference", "I do not eat shellfish, should you ever be asked to suggest a restaurant"),
            ("preference", "I should be grateful if answers were kept concise; I read them between meetings"),
            ("preference", "I am at my best first thing; afternoon meetings rarely go well for me"),
            ("relationship", "our spaniel {dog} rules the household with a rod of iron"),
            ("identity", "I was brought up in a cathedral town in the north"),
            ("preference", "I cannot abide coriander"),
            ("event", "{spouse} and I have just returned from a walking holiday in the Dolomites")]

CHITCHAT = [("could you suggest some reading for a long train journey?", "A substantial historical novel suits a "
             "long journey well; alternatively, a collection of essays allows one to dip in and out."),
            ("the weather this morning has been quite extraordinary", "It sounds like a day best spent indoors with a "
             "pot of tea."),
            ("I suspect I have had rather too much coffee today", "Some water, followed by a short stroll, may take "
             "the edge off."),
            ("have you any thoughts on a simple supper?", "An omelette with whatever herbs are to hand, a green salad "
             "and some good bread is hard to improve upon."),
            ("I am in want of a good detective novel", "A classic country-house mystery is always a safe choice; if "
             "you prefer something darker, a Scandinavian procedural."),
            ("why is it that the last week before a holiday drags so?", "Largely anticipation: attention drifts to "
             "the holiday, so each remaining task feels heavier."),
            ("my orchid has stopped flowering altogether", "Orchids often rest after flowering; a cooler spell at "
             "night and a little less water can coax a new spike."),
            ("do tell me something I am unlikely to know", "Honey found in ancient tombs has been reported still "
             "edible after thousands of years."),
            ("I cannot decide whether to walk home or take a cab", "If the evening is fine, the walk may do you good; "
             "if not, there is no shame in the cab."),
            ("is it eccentric to take tea without milk?", "Not in the least; many people prefer it, particularly "
             "with the more delicate blends."),
            ("I have been meaning to learn the piano for years", "It is never too late. A short daily practice tends "
             "to serve adult beginners better than occasional long sessions."),
            ("the builders next door have been hammering since dawn", "How trying. Earplugs and a closed window may "
             "at least salvage the afternoon."),
            ("which season do you suppose is the most agreeable?", "I have no preference myself, though late summer "
             "has a good many admirers."),
            ("I have at last put my correspondence in order", "A considerable achievement; do enjoy the sense of "
             "order while it lasts."),
            ("how does one keep rosemary alive on a windowsill?", "Plenty of sun, very free-draining soil, and "
             "watering only when it has quite dried out."),
            ("my laptop has become unbearably slow", "Closing programs running in the background and restarting it "
             "occasionally often helps; an ageing disk can also be the cause."),
            ("any advice for a stiff back after a day at the desk?", "A few gentle twists, a hamstring stretch and a "
             "brief walk every hour or so can make a real difference."),
            ("is it acceptable to wear brown shoes in town?", "These days, entirely so; the old rule is seldom "
             "observed."),
            ("I keep resolving to keep a diary and failing", "Perhaps begin with a single sentence each evening; "
             "a modest habit is far easier to sustain."),
            ("what might one do with a wet Sunday afternoon?", "A gallery you have not visited, a long lunch, or a "
             "jigsaw and the radio.")]
REQUESTS = [("would you draft a brief note to {stranger} at {org}, explaining that I am unable to attend on {day} "
             "and proposing a call of {n} minutes instead?",
             "Certainly:\n\nDear {stranger},\n\nI regret that I shall be unable to attend on {day}. Might a call of "
             "{n} minutes be a suitable alternative? I should be happy to fit around your diary.\n\nWith kind "
             "regards,\n{me}"),
            ("please summarise the following: '{org} received {big} complaints in the last quarter, chiefly about "
             "invoicing, and {stranger} has proposed recruiting {n} additional staff'",
             "{org} received {big} complaints last quarter, mostly concerning invoicing; {stranger} proposes {n} "
             "additional staff."),
            ("might you propose some names for a bookshop to be opened by {stranger}?",
             "Some possibilities: {stranger}'s Shelves, The Folded Corner, Marginalia, Spine & Leaf, The Reading "
             "Room."),
            ("compose a few lines of light verse on a heron that stole {few} goldfish", "A heron stood grave by the pond, / of "
             "goldfish exceedingly fond; / it took {few} in a row, / with a dignified bow, / and departed for "
             "places beyond."),
            ("kindly check this for errors: 'Dear {stranger}, we acknowlege receipt of your {n} documents on {day}'",
             "'Dear {stranger}, we acknowledge receipt of your {n} documents on {day}.' Only 'acknowledge' required "
             "correction."),
            ("help me to answer {stranger}, who is seeking a refund of £{n} for a cancelled booking",
             "Dear {stranger}, I am sorry that your booking was cancelled. A refund of £{n} has been arranged and "
             "ought to be credited to your account shortly."),
            ("how would one render 'our meeting now takes place in room {n}' in French?",
             "'Notre réunion a désormais lieu en salle {n}.'"),
            ("could you soften this for me: '{stranger}, {org} is still owed £{big}'",
             "'Dear {stranger}, may I gently draw your attention to an outstanding balance of £{big} owed to {org}.'"),
            ("kindly draw up a packing list for {few} days of meetings somewhere wet",
             "A good raincoat, an umbrella, two suits or equivalent, shoes that tolerate puddles, enough shirts for "
             "{few} days, a charger and a folder that keeps papers dry."),
            ("explain inflation as one would to a child", "When prices go up over time, the same coins buy a little "
             "less each year, so money saved slowly loses some of its power.")]
DISTRACTORS = ["were I to attend to everything on my desk, I should need {few} additional weeks in every year",
               "remind me, what is the name of that application for booking meeting rooms?",
               "I confess my own tax return is in a state of some disarray",
               "in principle I ought to take more exercise, but there it is",
               "one day I should like to learn to bind books",
               "the water rates were settled last month, as it happens",
               "it would be pleasant if the photocopier functioned for a whole week",
               "I might tidy the study this weekend, or I might not"]
UNSURE = ["I do not believe you have mentioned that to me.", "I am afraid that has not come up between us.",
          "I have no record of that, I am sorry to say.", "That is not something you have told me. Shall we look into it?"]
SHRUG = ["Quite understandable.", "Indeed it is.", "A fair point.", "One can hardly blame you.", "Very true, alas."]
SUGGEST = [("is there anything I have overlooked?", "It may be worth confirming the diary invitations before {day} "
            "and sending a brief note to those concerned."),
           ("what is your view?", "One option would be to seek a second opinion before committing, though the "
            "decision is of course yours."),
           ("how would you proceed?", "In your position, I should reserve an hour on {day} for a careful review "
            "of it."),
           ("any further suggestions?", "A shared list of actions and owners might prevent anything slipping; I "
            "could draft one if that would help.")]
