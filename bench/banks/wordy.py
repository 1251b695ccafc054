"""Phrase bank 'wordy'. A person who writes to the assistant in long, chatty, rather British sentences: hedges,
passive voice, reported speech, asides. Written independently of the other banks: no names, topics or sentences
in common (gen.py --check verifies). Placeholders: {v}/{old} slot values, {topic}, thread entities, personal
entities, {me} the user, {n}/{n2}/{big}/{few} fresh numbers, {day}, {due}, {stranger}/{org} (one-off requests)."""

NAME = "wordy"

USERS = ["Siobhán Keane", "Callum Rennie", "Bethan Morgan", "Tiago Ferreira", "Aoife Brennan", "Euan MacLeod",
         "Larissa Costa", "Dafydd Price", "Niamh Gallagher", "Rodrigo Almeida", "Mhairi Sinclair", "Gethin Lloyd",
         "Inês Carvalho", "Cormac Doherty", "Ffion Rees", "Thiago Nogueira"]

PEOPLE = ["Aisling", "Ciarán", "Oisín", "Róisín", "Saoirse", "Tadhg", "Eoin", "Gráinne", "Orla", "Pádraig",
          "Clodagh", "Darragh", "Ronan", "Fiachra", "Sinéad", "Ailsa", "Hamish", "Morag", "Lachlan", "Catriona",
          "Fergus", "Kirsty", "Alasdair", "Struan", "Rhys", "Cerys", "Angharad", "Iwan", "Llinos", "Sioned",
          "Aled", "Carys", "Owain", "Gonçalo", "Duarte", "Leonor", "Rafaela", "Caio", "Luana", "Fernanda",
          "Vinícius", "Matheus", "Thaís", "Joaquim", "Marília"]
STRANGERS = ["Mrs. Flanagan", "Dr. Moira Baird", "Mr. Cadwaladr", "Senhora Pinto", "Gerald Ashcombe", "Dr. Prosser",
             "Maureen Tierney", "Mr. Henriques", "Winifred Hale", "Alun Protheroe", "Mrs. Quigley", "Dr. Sampaio"]
ORGS = ["Rathmore Building Society", "Glenbrae Energy", "Cardell Broadband", "Penrose Veterinary",
        "Strathearn Council", "Marisco Insurance", "Ferrol Telecom", "Lowther Removals", "Bellhaven Dental"]
CAFES = ["Salt Cellar", "Gannet & Crumb", "Little Heron", "Marram Coffee House", "Tarn House", "Blue Limpet",
         "Wren's Nest"]
ROASTERS = ["Hollowgate Roasters", "Saltburn Bean Co", "Ferncliff Coffee", "Moorhen Roastery", "Tidewrack Coffee",
            "Blackthorn Roasting House", "Cairnbrook Coffee", "Velha Torra Cafés"]
VIVA_ROOMS = ["the Senate Room", "the Merriman Building", "the Old Observatory", "the Ravensworth Suite",
              "the Coleridge Room", "the Tennant Library", "the Ogilvie Room", "the Lindsay Lecture Theatre"]
CITATION = ["Harvard", "Chicago author-date", "Vancouver", "APA", "MHRA", "OSCOLA", "IEEE"]
ELDERS = ["Auntie Bríd", "Uncle Dermot", "Great-aunt Effie", "Uncle Seán", "Auntie Conceição", "Uncle Iolo",
          "Granny Peggy"]
REUNION_VENUES = ["Glenmorran House", "Ballykeel Community Hall", "the Tarbet Lodge Hotel", "Carrigdown Mill",
                  "Penhallow Barn", "the Lochside Pavilion", "Abernant Farm", "Quinta das Gaivotas"]
CATERERS = ["Hearthside Kitchen", "Mulberry & Sage", "The Travelling Pot", "Brannigan's Catering", "Dunloe Feasts",
            "Saltire Suppers", "Cegin Fach Catering"]
MAINS = ["hog roast", "paella", "beef and Guinness stew", "lamb cawl", "feijoada", "fish pie", "venison casserole",
         "bacalhau com natas"]
BOATS = ["Curlew", "Morwenna", "Kittiwake", "Maid of Arran", "Linnhe Lass", "Gwennol", "Estrela do Mar"]
BOATYARDS = ["Ardnish Boatyard", "Glasdrum Marine", "Porth Eilian Yard", "Ballyhornan Slipway", "Penmorva Boatworks",
             "Innisfallow Marina", "Skerrymore Boatyard"]
TIMBERS = ["iroko", "larch", "Douglas fir", "khaya mahogany", "sapele", "western red cedar", "opepe"]
CHARITIES = ["Harbour Light Trust", "Seaglass Children's Fund", "Lantern Hospice", "Cúram Trust", "Moorland Rescue",
             "Ty Cennin Trust"]
SPONSORS = ["Glenarden Distillery", "Morrow & Keane Solicitors", "Cairnfield Motors", "Lusitânia Wines",
            "Penlee Estate Agents", "Brynmor Homes"]
GALA_VENUES = ["the Ashgrove Assembly Rooms", "the Kelburn Hotel", "the Marchmont Ballroom", "Pennant Hall",
               "the Lismore Rooms", "the Strand Pavilion", "Carden Castle"]
PRIZES = ["a balloon flight over the glens", "a signed rugby jersey", "dinner cooked by a private chef",
          "a week in a cottage in Connemara", "a framed seascape by a local painter", "a case of vintage port",
          "a spa weekend in the Borders"]
LEDGERS = ["Tallyhouse", "Ledgerline", "Counterfoil", "Fieldbook", "Balancebay", "Sterling Desk", "Quayside Books"]
IMPLEMENTERS = ["Ledgerwright Consulting", "Clearbook Partners", "Tallis & Rowe Advisory", "Brackenridge Systems",
                "Pennywhistle Digital", "Kittering Finance Tech"]
AUDITORS = ["Hartigan Moss LLP", "Pryce Ogilvy", "Calder Whyte & Co", "Lennox Amaral Audit"]
HOMETOWNS = ["Kilbrannock", "Strathcairn", "Llanfeddyg", "Ballinreagh", "Porthgwyn", "Aberdrysten", "Carrickmoyle"]
EMPLOYERS = ["Greystone Mutual", "Bannock & Reid", "Tarrant Analytics", "Hollins Shipping"]
DOGS = ["Seamus", "Dolly", "Crumble", "Barra"]

PERSONAL_ENTS = dict(partner="PEOPLE", mate="PEOPLE", town="HOMETOWNS", employer="EMPLOYERS", dog="DOGS")

THREADS = [
    dict(
        name="cafe opening", short=["the café", "café matters", "{cafe}", "the café plans"],
        ents=dict(cafe="CAFES", landlord="PEOPLE", baker="PEOPLE", cofounder="PEOPLE"),
        slots=[
            dict(id="opening_day", kind="date", type="plan", topic="the opening day for {cafe}",
                 q=["When is {cafe} opening its doors?", "What date is the café due to open?",
                    "When's the first day of trading at {cafe}?"],
                 say=["{cafe} is meant to open its doors on {v}, all being well",
                      "the opening has been set for {v}, which I suppose gives us just about enough time",
                      "we're aiming to open {cafe} on {v}",
                      "it's been agreed that our first day of trading will be {v}",
                      "{cofounder} reckons we can open on {v}, and I'm inclined to agree",
                      "if the stars align we'll be serving our first customers on {v}"]),
            dict(id="covers", kind="number", num=(18, 48), fmt=["{} covers", "{} seats"], type="knowledge",
                 topic="the seating capacity",
                 q=["How many people can {cafe} seat?", "How many covers does the café have?"],
                 say=["the council licence allows {v} inside, which is rather more than I'd hoped",
                      "we'll have room for {v} once the counter's in",
                      "it turns out we can fit {v} comfortably, if nobody brings a pram",
                      "the fit-out drawings give us {v}, not counting the bench out front",
                      "{cofounder} measured up and says we can squeeze in {v}"]),
            dict(id="yearly_rent", kind="number", num=(14, 38), fmt=["£{}k a year", "£{},000 a year"],
                 type="decision", topic="the annual rent",
                 q=["What's the yearly rent on the café premises?", "How much rent are we paying for {cafe}?"],
                 say=["the rent has been agreed at {v}, which {landlord} insists is a bargain",
                      "we've signed up to {v} for the unit",
                      "after a fair bit of haggling the lease came in at {v}",
                      "{landlord} says the rent will be {v}, rates on top, naturally",
                      "I suppose {v} is what we're paying now, for better or worse"]),
            dict(id="bean_supplier", kind="name", pool="ROASTERS", type="decision", topic="our coffee supplier",
                 q=["Which roaster is supplying the café's coffee?", "Who are we buying our beans from?"],
                 say=["we've gone with {v} for the beans",
                      "the coffee will come from {v}, after a rather over-caffeinated afternoon of tastings",
                      "{v} are going to supply the beans",
                      "I think we've settled on {v} as the roaster, they were lovely on the phone",
                      "the contract for beans has been given to {v}"]),
            dict(id="head_barista", kind="name", pool="PEOPLE", type="relationship", topic="the head barista",
                 q=["Who's going to be head barista at {cafe}?", "Who have we taken on to run the coffee bar?"],
                 say=["{v} has accepted the head barista job",
                      "we've offered the head barista role to {v} and, wonderfully, they've said yes",
                      "{v} will be running the bar, which is a weight off my mind",
                      "it turns out {v} is free to start as our head barista",
                      "the person behind the machine is going to be {v}"]),
        ],
        facts=[("decision", "we've decided against doing hot food, it'll be cakes, toasties and not much else, at "
                            "least to begin with"),
               ("relationship", "{landlord} owns the building and lives in the flat upstairs, which could turn out "
                                "to be a blessing or a curse"),
               ("event", "the environmental health officer came round on {day} and, rather to my surprise, found "
                         "nothing to complain about"),
               ("knowledge", "apparently a proper espresso machine wants servicing every {few} months or so"),
               ("preference", "I'd like the place to feel like somebody's kitchen rather than a chain - mismatched "
                              "chairs, that sort of thing"),
               ("plan", "the idea is a soft opening for friends and neighbours the weekend before we open "
                        "properly"),
               ("relationship", "{baker} is going to bake for us, and honestly their sourdough is half the reason "
                                "I started all this"),
               ("identity", "I've never run a business before, unless you count a lemonade stall when I was small"),
               ("decision", "{cofounder} and I have agreed to split the shifts down the middle for the first "
                            "six months")],
        loops=[dict(acts=["apply for the pavement licence", "get the application in for tables outside"],
                    opens=["the pavement licence for the outside tables still needs sorting, and the council are "
                           "notoriously slow"],
                    done=["the council have granted us permission, so tables can go out front",
                          "we're allowed chairs on the pavement now, the letter came through on {day}"]),
               dict(acts=["do the food hygiene course", "get my food safety certificate"],
                    opens=["somebody has to do the food hygiene training and I suppose, as the named manager, "
                           "that's me"],
                    done=["the certificate's been printed and is pinned up behind the till",
                          "I passed the online test last night, so we're legal on that front"]),
               dict(acts=["send {landlord} the signed lease", "get the signed lease back to {landlord}"],
                    opens=["{landlord} is still waiting on the lease from me, and I keep putting it off"],
                    done=["{landlord} has the paperwork now, countersigned and everything",
                          "the lease is with the solicitor and {landlord} has a copy"]),
               dict(acts=["order the crockery", "choose cups and saucers and get them ordered"],
                    opens=["we still don't have a single cup to serve anything in, which needs sorting before "
                           "long"],
                    done=["boxes of plates and mugs have been delivered and are stacked up in the back",
                          "the tableware turned up on {day}, only one saucer broken in transit"])],
        asks=[("what do people usually forget when they open a café?",
               "Often the unglamorous bits: a card machine that still works offline, a cash float, extra milk for "
               "the first rush, and a plan for who covers when somebody's ill."),
              ("is it wiser to open on a weekend or midweek?",
               "Midweek is usually gentler - it gives you a few quieter days to iron out problems before the "
               "weekend crowd arrives."),
              ("I keep waking up in the small hours thinking about milk deliveries",
               "That's very normal this close to opening. Writing the worry down before bed, with what you'll do "
               "about it, can help quieten it.")],
        maybe=["if we'd found a corner unit I suppose we could have done evening openings, but there we are",
               "one day it'd be lovely to roast our own beans, though I've no idea how anyone finds the time",
               "did I ever tell you what the shop used to be before it sat empty? I can't for the life of me "
               "remember"],
    ),
    dict(
        name="phd thesis", short=["the thesis", "thesis things", "my PhD", "the write-up"],
        ents=dict(supervisor="PEOPLE", labmate="PEOPLE"),
        slots=[
            dict(id="word_total", kind="number", num=(62, 98), fmt=["{}k words", "{},000 words"], type="knowledge",
                 topic="the thesis word count",
                 q=["How long is my thesis at the moment?", "What's the word count on the thesis now?"],
                 say=["the draft is sitting at roughly {v}, references excluded",
                      "I reckon the thesis is at {v}, give or take",
                      "it turns out the whole thing comes to {v}, which is rather under the limit",
                      "last I checked it was {v}, though that was before the appendices",
                      "{supervisor} was pleased to hear it's {v}, apparently that's about right"]),
            dict(id="hand_in", kind="date", type="plan", topic="my submission deadline",
                 q=["When does my thesis have to be submitted?", "What's the submission deadline for the PhD?"],
                 say=["the thesis has to be handed in by {v}",
                      "the graduate school has set my submission date as {v}",
                      "{supervisor} says I should aim to submit on {v}, and I suppose that's fair",
                      "my deadline for submitting is {v}, and I'm told there's no wriggle room",
                      "the registry have me down to submit on {v}"]),
            dict(id="external", kind="name", pool="PEOPLE", type="relationship", topic="my external examiner",
                 q=["Who is my external examiner?", "Who's been appointed as the outside examiner for my viva?"],
                 say=["{v} has agreed to be my external examiner",
                      "my external is going to be {v}, which I'm told is good news",
                      "{supervisor} says {v} will examine the thesis externally",
                      "it's been confirmed that {v} is examining me from outside the university"]),
            dict(id="viva_room", kind="place", pool="VIVA_ROOMS", type="plan", topic="the viva room",
                 q=["Where is my viva being held?", "Which room is the viva in?"],
                 say=["the viva will be held in {v}",
                      "they've booked {v} for my viva, which is terrifyingly grand",
                      "I'm told the examination takes place in {v}",
                      "the department has put my viva in {v}"]),
            dict(id="referencing", kind="thing", pool="CITATION", type="decision", topic="the referencing style",
                 q=["Which referencing style is my thesis using?", "What citation format did we settle on for the "
                    "thesis?"],
                 say=["the department wants everything in {v}",
                      "I've gone with {v} for the references, since that's what the department seems to prefer",
                      "it's {v} referencing throughout, apparently non-negotiable",
                      "{supervisor} has talked me into {v} for the citations"]),
        ],
        facts=[("identity", "my PhD is on salt marsh erosion, which sounds romantic until you've read your "
                            "hundredth sediment paper"),
               ("relationship", "{supervisor} is my primary supervisor and, bless them, answers emails at midnight"),
               ("event", "chapter two came back from {supervisor} on {day} absolutely covered in red ink"),
               ("decision", "we've agreed to cut the final case study entirely, it was never going to work"),
               ("knowledge", "the graduate school wants a PDF plus {few} bound copies, apparently"),
               ("preference", "I write best in the library before lunch; after that it's hopeless"),
               ("plan", "the plan is a mock viva with {labmate} a fortnight before the real thing"),
               ("relationship", "{labmate} from the lab has very kindly offered to proofread the methods chapter"),
               ("event", "my funding ran out at the end of last month, so I've been tutoring on the side")],
        loops=[dict(acts=["send chapter three to {supervisor}", "get the third chapter over to {supervisor}"],
                    opens=["I've said I'd get chapter three to {supervisor} before our next meeting, and it's "
                           "nowhere near ready"],
                    done=["chapter three is with {supervisor} now, for better or worse",
                          "{supervisor} has the third chapter and has promised comments within a fortnight"]),
               dict(acts=["fill in the intention to submit form", "get the intention-to-submit paperwork in"],
                    opens=["the intention to submit form needs doing, the registry won't let me book a viva "
                           "without it"],
                    done=["the registry emailed to say my paperwork has been logged",
                          "it's all been lodged with the registry, so officially I'm on the clock"]),
               dict(acts=["chase {labmate} for the field data files", "get the raw survey data from {labmate}"],
                    opens=["I'm still waiting on {labmate} to send over the field data, which is holding up the "
                           "results chapter"],
                    done=["the spreadsheets landed in my inbox last night, courtesy of {labmate}",
                          "{labmate} came through - everything's on the shared drive now"]),
               dict(acts=["renew my library card", "sort out my library access"],
                    done=["the library have extended my access until after the viva",
                          "my card works again, the desk fixed it in about a minute"])],
        asks=[("how do people usually prepare for a viva?",
               "Reread the thesis with fresh eyes, list its weakest points and practise defending them, and do at "
               "least one mock with someone willing to push back."),
              ("is it normal to loathe your own thesis by the end?",
               "Extremely normal. Nearly everyone does in the final stretch - it usually means you've read it too "
               "many times, not that it's bad."),
              ("my introduction reads like a shopping list, any thoughts?",
               "Try opening with the puzzle your research answers, then make each section a step towards the "
               "answer rather than a list of topics.")],
        maybe=["if I'd picked a narrower topic I'd probably have finished a year ago, but that's hindsight for you",
               "I do sometimes wonder whether anybody besides my examiners will ever read it",
               "ages ago I presented a poster on all this at a summer school, must have been my first year"],
    ),
    dict(
        name="family reunion", short=["the reunion", "the family do", "reunion planning"],
        ents=dict(kin="PEOPLE", elder="ELDERS"),
        slots=[
            dict(id="gathering_place", kind="place", pool="REUNION_VENUES", type="plan", topic="the reunion venue",
                 q=["Where is the family reunion being held?", "Which venue have we booked for the reunion?"],
                 say=["the reunion's going to be at {v}, which {elder} thinks is far too grand",
                      "we've put a deposit down on {v}",
                      "{kin} says the family have settled on {v}",
                      "it's been decided, after much wrangling, that we'll all gather at {v}",
                      "{v} has been booked for the whole weekend, I'm told"]),
            dict(id="gathering_date", kind="date", type="plan", topic="the reunion date",
                 q=["When is the family reunion?", "What date did the family settle on for the reunion?"],
                 say=["the reunion is pencilled in for {v}",
                      "everyone seems able to make {v}, so that's the date",
                      "my sister says the reunion will be on {v}",
                      "the big day is {v}, assuming nobody kicks up a fuss",
                      "{elder} has been told it's {v} and seems content with that"]),
            dict(id="relatives", kind="number", num=(40, 140), fmt=["{} guests", "{} people"], type="knowledge",
                 topic="the number of relatives coming",
                 q=["How many relatives are coming to the reunion?", "What's the headcount for the reunion?"],
                 say=["we're expecting {v}, give or take a few second cousins",
                      "it turns out {v} have said they're coming",
                      "the replies add up to {v} so far",
                      "{kin} has counted {v} on the spreadsheet",
                      "I reckon we'll end up with {v}, which is frankly alarming"]),
            dict(id="food_firm", kind="name", pool="CATERERS", type="decision", topic="the catering firm",
                 q=["Who's doing the food for the reunion?", "Which caterer did we book for the family reunion?"],
                 say=["{v} are doing the food",
                      "my sister says the caterer will be {v}, and she's already been in touch with them",
                      "we've booked {v} to feed everyone",
                      "the catering has gone to {v}, largely because they do a decent vegetarian option"]),
            dict(id="main_dish", kind="thing", pool="MAINS", type="decision", topic="the main course",
                 q=["What's being served as the main course at the reunion?", "What are we feeding everyone at the "
                    "reunion?"],
                 say=["the main course will be {v}",
                      "we've plumped for {v} for the main",
                      "it's going to be {v}, which should keep most of the family happy",
                      "{elder} has been promised {v}, so that's what we're having"]),
        ],
        facts=[("relationship", "{kin} is my cousin on my mum's side and the only one of us who enjoys "
                                "spreadsheets"),
               ("knowledge", "the last proper reunion was back when my grandparents were still alive"),
               ("decision", "we've agreed the children eat free, and the grown-ups split the rest"),
               ("event", "{elder} rang on {day} to say they're flying over from Boston for it"),
               ("preference", "I'd really rather we didn't do name badges, though I suspect I'll be outvoted"),
               ("plan", "the plan is a long lunch on the Saturday and a walk on the Sunday for anyone still "
                        "standing"),
               ("relationship", "{elder} is the eldest of the lot and has opinions about everything, seating plans "
                                "especially"),
               ("decision", "it's been agreed that everyone chips in the same amount, however far they've "
                            "travelled")],
        loops=[dict(acts=["send out the save-the-date emails", "get the save-the-dates out to everyone"],
                    opens=["it falls to me to send the save-the-dates, since apparently I'm the one with "
                           "everybody's addresses"],
                    done=["everyone should have the date in their inbox by now",
                          "the invitations went out on {day} and replies are trickling in"]),
               dict(acts=["ring {elder} about dietary requirements", "find out what {elder} can and can't eat"],
                    opens=["somebody has to ask {elder} about food, and I suppose that's me"],
                    done=["{elder} can manage anything except shellfish, it turns out",
                          "had a long chat with {elder} - no allergies to worry about"]),
               dict(acts=["make a slideshow of the old family photos", "put together a slideshow of old pictures"],
                    done=["the slideshow's finished, every old print scanned and in order",
                          "{few} decades of photographs now live in one presentation"]),
               dict(acts=["book rooms for the relatives coming from abroad",
                          "sort out accomodation for the overseas lot"],
                    opens=["accomodation for the cousins coming from abroad still needs sorting"],
                    done=["the overseas cousins are all booked into a B&B down the road",
                          "everyone flying in has a bed for the night now"])],
        asks=[("any ideas for getting the different generations to actually talk to each other?",
               "A few prompts help: a table of old photos people can label, a family tree on the wall to fill in, "
               "or pairing the young and old for a quiz."),
              ("how far ahead should invitations go out for something like this?",
               "With people travelling, a good few months ahead is sensible, followed by a reminder a month or so "
               "beforehand."),
              ("my family is exhausting, if I'm honest",
               "That's fair - big family gatherings stir everything up. It's fine to hand off some jobs and keep a "
               "bit of energy back for yourself.")],
        maybe=["if the whole of the Canadian branch came we'd need a marquee, but I can't see it happening",
               "I did wonder about hiring a ceilidh band, though I'm not convinced anyone would dance",
               "years ago we did something similar for my granny's birthday and it ended in a row about parking"],
    ),
    dict(
        name="boat restoration", short=["the boat", "the {boat}", "boat work", "the restoration"],
        ents=dict(boat="BOATS", shipwright="PEOPLE", crewmate="PEOPLE"),
        slots=[
            dict(id="relaunch", kind="date", type="plan", topic="the relaunch date",
                 q=["When is the {boat} going back in the water?", "What's the relaunch date for the boat?"],
                 say=["the {boat} should be back in the water on {v}",
                      "the yard has the relaunch down for {v}",
                      "{shipwright} reckons she'll float again by {v}",
                      "we're hoping to relaunch on {v}, tides permitting",
                      "a crane has been booked for {v} to lift her back in"]),
            dict(id="yard", kind="place", pool="BOATYARDS", type="decision", topic="the boatyard",
                 q=["Where is the {boat} being worked on?", "Which yard is the boat laid up at?"],
                 say=["she's laid up at {v} for the winter",
                      "the {boat} has been hauled out at {v}",
                      "we've taken a spot on the hard at {v}",
                      "the work's being done at {v}, which is a bit of a drive but worth it"]),
            dict(id="refit_budget", kind="number", num=(11, 36), fmt=["£{}k", "£{},000"], type="decision",
                 topic="the restoration budget",
                 q=["What's the boat restoration going to cost us?", "What's the budget for fixing up the "
                    "{boat}?"],
                 say=["we've allowed {v} for the whole restoration, which I suspect is optimistic",
                      "the restoration is budgeted at {v}",
                      "{partner} and I agreed we won't spend more than {v} on her",
                      "the yard's estimate came to {v}, all in",
                      "I suppose {v} is the ceiling, though boats have a way of eating money"]),
            dict(id="planking", kind="thing", pool="TIMBERS", type="decision", topic="the timber for the new planks",
                 q=["What wood are the new planks being made from?", "Which timber did we choose for replanking the "
                    "{boat}?"],
                 say=["the new planks will be {v}",
                      "{shipwright} has talked me into {v} for the planking",
                      "we're replanking in {v}, which apparently holds a fastening well",
                      "it's been decided the hull gets {v} where the old planks have gone soft"]),
            dict(id="rigger", kind="name", pool="PEOPLE", type="relationship", topic="the rigger",
                 q=["Who is doing the rigging on the {boat}?", "Who've we got to sort out the rigging?"],
                 say=["{v} is doing the rigging",
                      "the rigging has been handed to {v}, who comes highly recommended",
                      "we've asked {v} to re-rig her and, happily, they've agreed",
                      "{shipwright} put me in touch with {v}, who'll do the standing rigging"]),
        ],
        facts=[("identity", "I've been sailing since I was a child, mostly dinghies on the loch"),
               ("knowledge", "the {boat} was built in the fifties on the Clyde, or so the paperwork claims"),
               ("relationship", "{shipwright} at the yard is the one doing most of the woodwork"),
               ("event", "we found rot in the transom on {day}, which made for a grim afternoon"),
               ("decision", "we're keeping the original bronze fittings and just giving them a polish"),
               ("preference", "I'd rather she looked honest and a bit weathered than glossy like a showboat"),
               ("plan", "the plan is to sail her round to {town} once she's relaunched"),
               ("relationship", "{crewmate} has promised to crew for me the first summer")],
        loops=[dict(acts=["order the new sails", "get the sails ordered from the loft"],
                    opens=["I ought to get the sails sorted soon, the loft says they've a long waiting list"],
                    done=["the sailmaker has taken the measurements and a deposit",
                          "the loft confirmed on {day} that our suit of sails is in the queue"]),
               dict(acts=["renew the boat insurance", "get the {boat} insured again"],
                    opens=["the insurance on the {boat} lapses soon and I've not done anything about it"],
                    done=["she's covered for another year now",
                          "the policy documents came through this morning"]),
               dict(acts=["strip the old varnish off the cabin top", "sand back the cabin top"],
                    done=["the coachroof is bare wood now, every last flake gone",
                          "spent the whole of {day} with a heat gun and the coachroof is finally clean"]),
               dict(acts=["get the engine surveyed", "have someone look over the old engine"],
                    opens=["waiting on the marine engineer to come and look at the engine, he's been promising "
                           "for weeks"],
                    done=["the engineer's been, and it only needs new seals",
                          "the report on the inboard came back, nothing fatal"])],
        asks=[("what's the best way to stop a wooden boat drying out on the hard?",
               "Keep her covered but ventilated; some owners also dampen the bilges or hang wet sacking inside so "
               "the planks don't shrink and open up."),
              ("is it worth keeping an old inboard or should I go electric?",
               "It depends on range and budget: electric is quiet and simple for short hops, but for longer "
               "passages a well-kept diesel still makes sense."),
              ("my hands are wrecked from all the sanding",
               "Good gloves and a barrier cream before you start help a great deal - and stop before your grip "
               "goes.")],
        maybe=["if money were no object I'd have her professionally restored and just turn up to sail",
               "I suppose one day I might take her across to Brittany, though that's a daydream",
               "who was it that swore by linseed oil for everything? I can't remember now"],
    ),
    dict(
        name="charity gala", short=["the gala", "gala prep", "the {charity} gala", "the fundraiser"],
        ents=dict(charity="CHARITIES", chair="PEOPLE", treasurer="PEOPLE", sponsor="SPONSORS"),
        slots=[
            dict(id="gala_hall", kind="place", pool="GALA_VENUES", type="plan", topic="the gala venue",
                 q=["Where's the {charity} gala being held?", "Which venue has been booked for the gala?"],
                 say=["the gala is going to be at {v}",
                      "{chair} has booked {v} for the evening",
                      "we've secured {v}, which I gather took some doing",
                      "it's been confirmed that {v} will host us",
                      "the committee voted for {v}, so that's where we'll be"]),
            dict(id="ticket", kind="number", num=(45, 150), fmt=["£{} a ticket", "£{} per head"], type="decision",
                 topic="the cost of a gala ticket",
                 q=["How much are gala tickets?", "What are we charging per ticket for the gala?"],
                 say=["tickets are going to be {v}",
                      "the committee have settled on {v}",
                      "{chair} wants to charge {v}, which I think is just about right",
                      "it's {v}, dinner and wine included"]),
            dict(id="raise_goal", kind="number", num=(20, 90), fmt=["£{}k", "£{},000"], type="plan",
                 topic="the fundraising target",
                 q=["How much are we hoping to raise at the gala?", "What's the fundraising target for the "
                    "{charity} gala?"],
                 say=["we're hoping to raise {v} on the night",
                      "the target has been set at {v}",
                      "{treasurer} says {v} would cover the new minibus, so that's what we're aiming for",
                      "the trustees would be delighted with {v}, I'm told"]),
            dict(id="compere", kind="name", pool="PEOPLE", type="relationship", topic="the compère",
                 q=["Who's hosting the gala?", "Who's compèring on the night?"],
                 say=["{v} has agreed to compère",
                      "we've roped in {v} to host the evening",
                      "{chair} says {v} will be our master of ceremonies",
                      "the hosting duties have fallen to {v}, who's thrilled, apparently"]),
            dict(id="star_lot", kind="thing", pool="PRIZES", type="knowledge", topic="the star auction lot",
                 q=["What's the headline prize in the gala auction?", "What's the top lot at the auction?"],
                 say=["the star lot is {v}",
                      "{sponsor} have donated {v} for the auction",
                      "the prize everyone's talking about is {v}",
                      "we'll finish the auction with {v}, which ought to get the bidding going"]),
        ],
        facts=[("relationship", "{chair} chairs the fundraising committee and is terrifyingly organised"),
               ("decision", "we've dropped the raffle, the committee felt it cheapened the evening rather"),
               ("knowledge", "last year's gala raised a good deal less than hoped because the auction ran far too "
                             "late"),
               ("event", "{sponsor} confirmed on {day} that they'll cover the wine"),
               ("relationship", "{treasurer} is the treasurer and has to sign off anything over a few hundred "
                                "pounds"),
               ("plan", "drinks first, then dinner, with the auction squeezed in before pudding"),
               ("preference", "I'd like the speeches kept short, nobody ever wants more than a few minutes of "
                              "speeches"),
               ("identity", "I've volunteered with {charity} most weekends for years now")],
        loops=[dict(acts=["get the auction lots photographed for the catalogue", "sort out photos of the prizes"],
                    done=["every lot has been photographed, and the catalogue looks rather smart",
                          "the pictures are all taken, {treasurer} held the lights"]),
               dict(acts=["confirm the seating plan with the venue", "get the table plan to the venue"],
                    opens=["the venue keeps asking for the seating plan and I've said they'll have it {due}"],
                    done=["the banqueting manager has the table plan and is happy with it",
                          "seating's been signed off by the venue"]),
               dict(acts=["chase {sponsor} for the signed sponsorship agreement", "get {sponsor}'s contract signed"],
                    opens=["still haven't heard back from {sponsor} about the sponsorship agreement"],
                    done=["{sponsor}'s agreement came back signed on {day}",
                          "the sponsorship is official now, paperwork and all"]),
               dict(acts=["write my welcome speech", "draft a few words for the start of the evening"],
                    opens=["I've been asked to say a few words on the night and haven't written a thing"],
                    done=["the speech is written and {chair} has had a look",
                          "my welcome is on cue cards in my handbag now"])],
        asks=[("how do you get people bidding at a charity auction?",
               "Open with a lot that's likely to get competitive so the room warms up, keep the pace brisk, and "
               "use an auctioneer who can name a few people in the room."),
              ("how many volunteers does a gala like this normally need?",
               "A volunteer for every couple of tables is a decent starting point, plus a few floaters for "
               "registration, auction runners and the odd emergency."),
              ("I'm starting to dread this gala, truthfully",
               "Completely understandable with so much riding on it. Perhaps list what's actually left - it's "
               "often shorter than it feels.")],
        maybe=["if we got a celebrity along I suppose ticket sales would look after themselves",
               "I've often thought a charity ball would be more fun in fancy dress, though the committee would "
               "have a fit",
               "didn't someone say the venue had trouble with its fire certificate once? I can't recall who"],
    ),
    dict(
        name="accounting migration", short=["the migration", "the accounts migration", "the move to {newsys}",
                                            "the finance systems project"],
        ents=dict(newsys="LEDGERS", oldsys="LEDGERS", fd="PEOPLE", consultant="PEOPLE", auditor="AUDITORS"),
        slots=[
            dict(id="cutover", kind="date", type="plan", topic="the go-live date",
                 q=["When does {newsys} go live?", "What's the cut-over date for the new accounting system?"],
                 say=["cut-over to {newsys} is scheduled for {v}",
                      "{fd} has signed off on {v} for go-live",
                      "we're going live on {v}, assuming the data behaves itself",
                      "the switch away from {oldsys} happens on {v}",
                      "I'm told the consultants have us down to go live on {v}"]),
            dict(id="seats", kind="number", num=(12, 75), fmt=["{} licences", "{} user seats"], type="decision",
                 topic="the {newsys} licence count",
                 q=["How many {newsys} licences are we buying?", "How many user seats did we take on the new "
                    "system?"],
                 say=["we're taking {v} on {newsys}",
                      "the contract covers {v}, which ought to be plenty",
                      "finance have asked for {v}, and {fd} didn't argue",
                      "it's been agreed we'll start with {v} and add more if needed"]),
            dict(id="implementer", kind="name", pool="IMPLEMENTERS", type="decision",
                 topic="the implementation partner",
                 q=["Which firm is implementing {newsys} for us?", "Who's our implementation partner on the "
                    "migration?"],
                 say=["{v} have been brought in to implement {newsys}",
                      "we've appointed {v} as the implementation partner",
                      "{fd} went with {v} to do the set-up, mostly on price",
                      "the implementation has been awarded to {v}"]),
            dict(id="project_cost", kind="number", num=(40, 180), fmt=["£{}k", "£{},000"], type="decision",
                 topic="the project budget",
                 q=["What's the total budget for the accounting migration?", "How much is the migration project "
                    "costing?"],
                 say=["the whole project has been budgeted at {v}",
                      "the board approved {v} for the migration",
                      "I reckon we'll come in at {v}, licences included",
                      "{fd} has ring-fenced {v} for it"]),
            dict(id="data_lead", kind="name", pool="PEOPLE", type="relationship", topic="the data migration lead",
                 q=["Who's leading the data migration?", "Who's in charge of moving the data across?"],
                 say=["{v} is leading the data migration",
                      "the data side has been handed to {v}",
                      "{fd} has asked {v} to own the data migration",
                      "{v} will be looking after the data conversion, which is a relief"]),
        ],
        facts=[("decision", "we're only bringing across the last three years of transactions, anything older "
                            "gets archived"),
               ("relationship", "{fd} is the finance director and will get the blame if it goes wrong, so is "
                                "understandably a bit twitchy"),
               ("knowledge", "{oldsys} stops being supported at the end of the year, which is rather the point"),
               ("event", "the first trial import ran on {day} and threw up a few hundred errors, mostly duplicate "
                         "suppliers"),
               ("plan", "we'll run both systems side by side for one month-end close before {oldsys} is switched "
                        "off"),
               ("preference", "I'd much rather delay go-live than go live with dodgy opening balances"),
               ("relationship", "{auditor} are our auditors and want to see the reconciliation before we switch"),
               ("identity", "I'm the financial controller, so all of this lands squarely on my desk"),
               ("event", "{consultant} ran a training session for the payables team and it went surprisingly "
                         "well")],
        loops=[dict(acts=["clean up the supplier list before the import", "get rid of the duplicate suppliers"],
                    opens=["the supplier master file needs sorting before anything gets imported"],
                    done=["the supplier file is clean now, every duplicate merged",
                          "we're down to a single record per vendor, finally"]),
               dict(acts=["get {fd} to approve the new chart of accounts", "have the chart of accounts signed off "
                                                                            "by {fd}"],
                    opens=["waiting on {fd} to approve the new chart of accounts, and nothing moves until that's "
                           "done"],
                    done=["the account structure has {fd}'s blessing",
                          "{fd} initialled the coding structure on {day}"]),
               dict(acts=["book the {newsys} training for the finance team", "arrange training for the team"],
                    done=["the team are booked onto sessions for next week",
                          "the course is in everyone's diary now"]),
               dict(acts=["send {auditor} the reconciliation pack", "get the opening balance reconciliation to the "
                                                                    "auditors"],
                    opens=["{auditor} are still waiting for the reconciliation from us"],
                    done=["the auditors have everything and haven't complained yet",
                          "{auditor} acknowledged receipt of the pack on {day}"])],
        asks=[("what usually goes wrong when a company changes accounting systems?",
               "Mostly the data: messy supplier and customer records, opening balances that don't tie out, and "
               "reports people relied on that nobody thought to rebuild."),
              ("should we bring over historical transactions or just balances?",
               "Many firms migrate opening balances plus a year or two of detail, and keep the rest in a read-only "
               "archive; it keeps the new ledger clean."),
              ("honestly if I see another spreadsheet of VAT codes I'll scream",
               "That's fair - mapping tax codes is tedious. Perhaps do it in short bursts with a proper break "
               "between each.")],
        maybe=["in an ideal world we'd have done this years ago, before the business doubled in size",
               "I sometimes think we'd be better off with an abacus, frankly",
               "we tried a new expenses tool a couple of years back and gave up on it after a month"],
    ),
]

# --- corrections: (cue, frame, value kinds it suits (empty: any), same session / later / any) ---------------
CORRECTIONS = [
    ("explicit", "I need to correct myself on {topic}: {say}, not {old}", (), "any"),
    ("explicit", "A correction, if I may - {say}", (), "any"),
    ("explicit", "To correct what I told you before, {say}", (), "any"),
    ("actually", "Actually, it turns out {say}", (), "any"),
    ("actually", "Actually, I've got that muddled - it's {v}", (), "same"),
    ("actually", "It's {v}, actually, not {old}", (), "any"),
    ("misspoke", "Sorry, I said the wrong thing a moment ago - {say}", (), "same"),
    ("misspoke", "I think I misspoke before; {say}", (), "any"),
    ("misspoke", "Hang on, that came out wrong. {Say}", (), "same"),
    ("change", "There's been a change of plan, I'm afraid: {say}", (), "later"),
    ("change", "Things have changed since we last spoke - {say}", (), "later"),
    ("change", "{Say}, not {old} - it was changed on {day}", (), "later"),
    ("moved", "{Topic} has been moved to {v}", ("date", "place"), "later"),
    ("moved", "{Topic} has been shifted to {v}, not {old} - somebody double-booked", ("date", "place"), "later"),
    ("moved", "They've moved {topic} from {old} to {v}", ("date", "place"), "later"),
    ("is-now", "{Topic} is now {v}, for what it's worth", (), "later"),
    ("is-now", "Just so you know, {topic} is {v} these days, not {old}", (), "later"),
    ("scratch", "Forget what I just said, {say}", (), "same"),
    ("scratch", "Disregard what I said about {topic} earlier; {say}", (), "any"),
    ("scratch", "Strike that, {say}", (), "same"),
    ("implicit", "{Say}, by the way", (), "later"),
    ("implicit", "I've been through the emails this morning, and {say}", (), "later"),
    ("implicit", "As it stands, {say}", (), "later"),
    ("implicit", "{Say} - I've seen it in writing", (), "later"),
    ("updated", "An update on {topic}: {say}", (), "later"),
    ("updated", "Latest on {topic} is that it's gone from {old} to {v}", (), "later"),
    ("updated", "Some news - {topic} has been revised to {v}", (), "later"),
]

LOOP_OPEN = ["it falls to me to {act} {due}",
             "I've said I'd {act} {due}, so I suppose I'd better",
             "I ought to {act} {due}",
             "somebody has to {act} and I suppose that's me",
             "could you nudge me to {act} {due}?",
             "must remember to {act}",
             "I've rather rashly promised to {act} {due}",
             "do hold me to this: I'm going to {act} {due}",
             "it's down to me to {act}, apparently",
             "I really must {act} {due}, it's been hanging over me for ages",
             "I've been asked to {act} {due}, so that's on my plate now",
             "if I haven't managed to {act} {due}, please give me a prod",
             "put me down for this one - I'll {act} {due}",
             "I've a feeling I'll forget to {act} unless you remind me",
             "I told everyone I'd {act} {due}, so there's no wriggling out of it",
             "before I forget, I need to {act} {due}",
             "I should probably {act} {due}, if I'm honest",
             "one for the list: {act}, ideally {due}",
             "the job of having to {act} seems to have landed with me"]
DUES = ["before Friday", "by Wednesday", "by the end of the month", "in the next few days", "by Tuesday",
        "ahead of the bank holiday", "within the fortnight", "tomorrow morning", "this week if I can",
        "by Monday at the latest"]

ACK = ["Right you are.", "Understood, thanks.", "That's useful to know.", "That's noted.", "Fair enough. Is there more "
       "to it?", "Sounds sensible.", "Very good, I've made a note.", "Thanks for letting me know.", "Righto.",
       "Makes good sense to me."]
ACK_VALUE = ["Right - {topic} is {v}, noted.", "I've got {topic} down as {v}.", "Understood: {v} for {topic}.",
             "Lovely, I'll keep {v} in mind for {topic}."]
ACK_CHANGE = ["Right, {topic} is {v} now rather than {old}.", "Noted - I've swapped {old} for {v}.",
              "Thanks, I'll go with {v} from here on.", "Understood, {topic} has changed to {v}."]
ACK_TODO = ["I'll keep that on your list.", "Right, that's on your to-do list now.",
            "Noted as something for you to do.", "I've added it - I'll bring it up again if it slips.",
            "On the list it goes."]
ACK_DONE = ["Lovely, that one's ticked off.", "Good stuff - I'll mark that as finished.",
            "Brilliant, one fewer thing to worry about.", "Splendid, that's off your plate.",
            "Great, I've closed that one off."]

OPENERS = ["morning", "hello again", "now then, {short}", "afternoon - a few bits on {short}",
           "sorry to bother you again", "hiya", "evening, I've a few minutes", "me again, I'm afraid",
           "so, where had we got to with {short}?", "a quick word about {short}, if you don't mind",
           "good morning, or what's left of it", "hello, hope you're well", "I've a couple of things to run past you"]
GREETINGS = ["Hello {me}, what's on the agenda?", "Hi {me} - go ahead.", "Good to hear from you. What's up?",
             "I'm all ears.", "Hello again! What can I help with?", "Of course, fire away."]
CLOSERS = ["right, I'll leave it there for today", "that's been really helpful, thank you", "must dash, speak soon",
           "lovely, that'll do for now", "I'd better get on, cheers", "thanks ever so much"]
GOODBYES = ["Always a pleasure, {me}.", "Take care, speak soon.", "Glad to help - good luck with it all.", "Cheerio for now!",
            "Enjoy the rest of your day."]
FILLERS = [("hang on", "By all means."), ("sorry, the doorbell went", "No problem, take your time."),
           ("right", "Mm-hm."), ("ha", "🙂"), ("let me gather my thoughts", "Sure, whenever you're ready."),
           ("where was I?", "We were talking about {short}."), ("cheers", "You're very welcome."),
           ("sorry, the kettle's boiling", "No hurry at all.")]
RECAP_ASKS = ["could you remind me where we've got to with {short}?", "what's the state of play on {short}?",
              "give me a quick summary, would you?", "where are we up to, roughly?"]
RECAP_TODO = ["Still outstanding: {todo}", "Yet to be done: {todo}", "Remaining on the list: {todo}"]
RECAP = ["Here's the state of play on {short}: {body}.", "Where things stand: {body}.",
         "A brief summary - {body}.", "So far: {body}."]
LEADS = ["a bit of news on {short}: ", "right, about {short} - ", "for what it's worth, ", "so, news: ",
         "thought I'd mention - ", "I should mention that "]
LOWER_OK = (r"(?:We|We've|The|Our|My|It|It's|So|Right|Apparently|Actually|Somebody|Could|Must|Just|There's|"
            r"Things|Latest|Some|Everyone|She's|Tickets|Before|Do|If|One|Put|Chapter|Cut-over|Had|Spent|Boxes|"
            r"Every|Forget|Strike|Disregard|An|A|To|Still|Waiting|Accomodation)\b")
JOINERS = [" Oh, and ", " Also - ", " While I think of it, ", " And another thing: ", " Incidentally, "]

PERSONAL = [("identity", "I grew up in {town}, a wee place nobody's ever heard of"),
            ("identity", "I've been at {employer} for the best part of a decade, though I'm part-time these days"),
            ("relationship", "{partner} and I have been together since university, which makes me feel ancient"),
            ("relationship", "my oldest friend {mate} lives round the corner and gets roped into all my schemes"),
            ("preference", "I don't eat meat, so do bear that in mind if you're ever suggesting places to eat"),
            ("preference", "I'd rather you were thorough than brief, to be honest, I like the detail"),
            ("relationship", "our spaniel {dog} is getting on a bit and sleeps most of the day"),
            ("preference", "I'm hopeless before my first cup of tea, so early plans are always a gamble"),
            ("event", "{partner} and I had a long weekend walking in the hills and I'm still aching"),
            ("identity", "I'm Welsh on my dad's side and Portuguese on my mum's, which makes for loud Christmases"),
            ("preference", "coriander ruins anything it touches, as far as I'm concerned")]

CHITCHAT = [("is it too early in the year to put the heating on?", "If you're cold, it isn't too early. A jumper "
             "and a hot water bottle can stretch things a few more weeks, mind."),
            ("the rain hasn't stopped in days, I'm beginning to grow moss", "Sounds thoroughly grim. A good film "
             "and something warm to drink may be the only sensible response."),
            ("what's a decent biscuit for dunking that won't collapse?", "A digestive or a hobnob holds up well; "
             "a rich tea is the risky choice."),
            ("any suggestions for a film tonight, nothing too heavy?", "A gentle comedy or an old caper film tends "
             "to fit the bill - light, but not brainless."),
            ("I've had far too much tea today, if such a thing is possible", "It is possible, apparently! Some plain "
             "water and a breath of fresh air might help."),
            ("why are the trains always late when I'm in a hurry?", "Mostly memory - you notice the late ones when "
             "it matters and forget all the punctual trips."),
            ("my sourdough starter has died again", "They're fussy things. Feed it more regularly and keep it "
             "somewhere warm, and it may well come back to life."),
            ("tell me something interesting about puffins", "Puffins can carry a surprising number of small fish "
             "at once, pinning them against little spines on the roof of the mouth."),
            ("is it wierd that I actually enjoy ironing?", "Not at all - plenty of people find repetitive jobs "
             "like that rather calming."),
            ("what would grow in a shady corner of the garden?", "Ferns, hostas and foxgloves all cope with shade, "
             "and hellebores give you flowers in winter."),
            ("I finally cleared out the cupboard under the stairs", "Well done - that cupboard defeats most "
             "people."),
            ("how do I stop my glasses steaming up when I wear a scarf?", "Pull the scarf a little lower, or try an "
             "anti-fog wipe on the lenses."),
            ("what's a good board game for a family that argues a lot?", "A cooperative game is a safe bet - "
             "everyone's on the same side, so there's less to fall out over."),
            ("do you think cats know their own names?", "Research suggests many cats do recognise their names - "
             "they just don't always choose to respond."),
            ("the neighbour's cockerel has started up at dawn again", "That's a rough alarm clock. Earplugs and a "
             "fan for background noise might buy you an hour."),
            ("give me a word I probably don't know", "Petrichor - the earthy smell when rain falls on dry ground."),
            ("is porridge better with salt or sugar?", "Traditionally salt, in Scotland at least, but a spoonful "
             "of honey has plenty of defenders."),
            ("my back's stiff from being hunched over a desk all day", "A few minutes of gentle stretching every "
             "hour or so helps - stand up, roll your shoulders, reach overhead."),
            ("any tips for remembering people's names?", "Say the name back when you're introduced and link it to "
             "something about them - it sticks far better."),
            ("I've started a jigsaw with far too much sky in it", "The sky is always the real test. Sorting the "
             "pieces by shape rather than colour can help.")]
REQUESTS = [("could you write a short note to {stranger} at {org} explaining I'll be late with the forms, and "
             "asking for another {n} days?",
             "Of course:\n\nDear {stranger},\n\nI'm sorry to say the forms will be a little late. Would it be "
             "possible to have another {n} days? I'd be very grateful.\n\nKind regards,\n{me}"),
            ("summarise this for me, would you: '{org} has had {big} complaints about late bills this quarter, and "
             "{stranger} wants to bring in {n} extra staff'",
             "{org} received {big} complaints about delayed bills this quarter; {stranger} proposes adding {n} "
             "staff."),
            ("suggest a few names for a knitting shop run by {stranger}",
             "Some thoughts: Purl & Plain, {stranger}'s Yarn Box, The Woolly Nook, Cast On, Loop and Skein."),
            ("write me a short verse about a heron who fished for {few} days without any luck",
             "For {few} grey days the heron stood, / as patient as a post of wood; / the river gave him not a "
             "bite, / so off he flapped to try the night."),
            ("check the spelling in this: 'Dear {stranger}, the meeting has been moved to room {n} on {day}, as "
             "it occured to us the old room was too small'",
             "'Dear {stranger}, the meeting has been moved to room {n} on {day}, as it occurred to us the old room "
             "was too small.' - only 'occurred' needed fixing."),
            ("could you draft a reply to {stranger}, who would like £{n} back because the parcel arrived damaged",
             "Dear {stranger}, I'm very sorry your parcel arrived damaged. I've arranged a refund of £{n}, which "
             "should reach your account within a few working days."),
            ("how would one put 'my bus goes from stop {n}' in Portuguese?",
             "'O meu autocarro parte da paragem {n}.' In Brazil you'd more likely hear 'Meu ônibus sai do ponto "
             "{n}.'"),
            ("make this gentler, would you: '{stranger}, your invoice to {org} for £{big} is overdue'",
             "'Hello {stranger}, just a friendly note that the invoice to {org} for £{big} appears to be "
             "outstanding - do let me know if anything's unclear.'"),
            ("what should I pack for {few} nights of camping in the Highlands?",
             "A warm sleeping bag, waterproofs top and bottom, midge repellent, a head torch, dry socks for each "
             "of the {few} nights, a stove and plenty of snacks."),
            ("explain inflation to me as if I were a child",
             "Imagine your pocket money stays the same but sweets cost a little more every year - you can buy "
             "fewer sweets. That's inflation.")]
DISTRACTORS = ["if I had a spare weekend I suppose I'd finally tackle the loft, but I don't",
               "I keep meaning to learn Portuguese properly, though I doubt it'll ever happen",
               "the council tax was settled months back, before you ask",
               "should I be worried that I never read the terms and conditions of anything?",
               "in theory I ought to floss more, but who actually does",
               "it would be lovely if the boiler stopped making that noise of its own accord",
               "someone at work suggested I take up juggling, which I thought was a definately odd idea",
               "I can never recall the title of that film with the lighthouse keeper",
               "I did think about taking up pottery once, years ago, and then didn't",
               "we sorted the car's MOT back in the spring, so that's one thing I needn't think about"]
UNSURE = ["I don't believe you've mentioned that to me.", "I'm afraid that's never come up, so I couldn't say.",
          "That's not something you've told me, I'm afraid.", "I don't know that one, sorry. Shall we try to work "
          "it out?"]
SHRUG = ["Ha, quite right.", "Fair point.", "I can't blame you.", "Very true.", "That's understandable."]
SUGGEST = [("is there anything I've overlooked?", "You might check that everyone involved has the latest details "
            "before {day}, and perhaps send a short round-up email."),
           ("what do you reckon?", "One possibility is to sleep on it and decide once you've heard from everyone - "
            "but you know the situation best."),
           ("how would you go about it?", "Personally I'd put an hour in the diary for {day} and work through "
            "everything in one sitting."),
           ("anything else I could do?", "A shared list with a name next to every item can stop things falling "
            "through the cracks - I could sketch one out.")]
