"""Phrase bank 'learner': a person who writes English as a second language - clear enough, with the slips a
non-native writer makes (dropped articles, odd tenses, literal phrasings, "until Friday" for "by Friday").
Written independently of the other banks: no names, topics or sentences in common (gen.py --check verifies).
Placeholders: {v}/{old} slot values, {topic}, thread entities, {me} the user, {n}/{n2}/{big} fresh numbers,
{day}, {due}, {stranger}/{org} (one-off requests only)."""

NAME = "learner"

USERS = ["Alejandra Ruiz", "Giulia Moretti", "Thanh Nguyen", "Andrei Popescu", "Camille Lefebvre",
         "Javier Ortega", "Ioana Dumitrescu", "Lorenzo Bianchi", "Minh Tran", "Raluca Stan", "Diego Navarro",
         "Francesca Greco", "Huong Pham", "Mathieu Girard", "Valentina Costa", "Bogdan Ionescu"]

PEOPLE = ["Ines", "Alvaro", "Jimena", "Rodrigo", "Marisol", "Iker", "Nerea", "Gonzalo", "Pilar", "Chiara",
          "Alessio", "Federica", "Davide", "Simona", "Riccardo", "Ilaria", "Tommaso", "Amandine", "Margaux",
          "Thibault", "Solene", "Yannick", "Manon", "Gaspard", "Mihai", "Corina", "Radu", "Oana", "Vlad",
          "Sorina", "Cosmin", "Anca", "Dragos", "Linh", "Tuan", "Phuong", "Quang", "Thao", "Khanh", "Hieu",
          "Trang", "Vy"]
STRANGERS = ["Mrs. Albescu", "Senor Quintana", "Dr. Ferrandi", "Monsieur Roussel", "Ms. Hoang", "Mr. Vasquez",
             "Signora Lombardi", "Dr. Marinescu", "Madame Duval", "Sr. Echeverria", "Mr. Le Van", "Ms. Petrescu"]
ORGS = ["Vallecito Telecom", "Lumetta Insurance", "Stradivo Energia", "Rapidpost Courier", "Centro Medico Aurora",
        "Aquavera Water", "Fitlane Gym", "Cassa Verde Bank", "Orizzonte Rentals"]
PERMITS = ["EU Blue Card", "skilled worker permit", "researcher permit", "long-stay work visa",
           "self-employment permit", "job seeker visa"]
OFFICES = ["Marlowe Street office", "Eastgate Service Centre", "Porta Vittoria branch", "Lindenhof migration office",
           "Harbour Road centre", "Saint-Clair foreigners office"]
UNIS = ["Universita di Valmora", "Universite Clairmont", "Universidad de Almarez", "Northbay University",
        "Karst Polytechnic", "Tay Ho University"]
PROGRAMS = ["MSc Urban Planning", "MA Translation Studies", "MSc Food Science", "MSc Renewable Energy",
            "MA Cultural Management", "MSc Data Journalism", "MSc Water Engineering"]
CAMPUSES = ["Villanova campus", "Bellevue site", "North Quay campus", "Castello building", "Montbrun campus",
            "Parc Ouest campus"]
DISTRICTS = ["Colle Alto", "Les Tilleuls", "Valdemora", "Pradoverde", "Quai Saint-Roch", "Dealul Verde",
             "Borgo Fiorito"]
BANKS = ["Banca Solaria", "Credit des Monts", "Caja Horizonte", "BancaNova Est", "Banca Carpatia",
         "Song Hong Savings"]
AIRPORTS = ["Castellmar Airport", "Nordheim Airport", "Saint-Evrard Airport", "Valmonte International",
            "Porto Alvo Airport", "Kessel Field"]
TRIPS = ["Lago di Serravalle", "Isola Bruna", "Vieux-Moulin village", "Sierra Calma", "Castel Duro",
         "Brandusa Gorge"]
SCHOOLS = ["Autoscuola Rapida", "Auto-Ecole du Parc", "Autoescuela Girasol", "DriveSmart Academy",
           "Scoala Volan Plus"]
CARS = ["Zefira Mini", "Corvana City", "Pavo Urban", "Nivola Sport", "Brisa Hatch", "Orsetto Duo"]
CENTRES = ["Lagoverde test centre", "Montreuil-Est centre", "Camino Alto exam centre", "Ponte Rosso centre",
           "Dumbrava test site"]
BRANDS = ["Mesa Abuela", "Piccola Tavola", "Le Panier Volant", "Bep Nha", "Masa Bunicii"]
CLIENTS = ["Studio Arcobaleno", "Ferrante & Figli", "Atelier Lune", "Grupo Almendro", "Vantaggio Consulting",
           "Lotus Dental"]
KITCHENS = ["Cucina Comune", "Rue Barbes shared kitchen", "Cocina Abierta hub", "Bucataria Mare",
            "Quayside Food Lab", "Forno Vecchio space"]
DISHES = ["sarmale", "banh bao", "empanadas gallegas", "arancini", "quiche lorraine", "goi cuon",
          "tortilla de patatas", "suppli"]
HOMETOWNS = ["Cluj", "Da Nang", "Zaragoza", "Bari", "Lyon", "Iasi", "Hue", "Valladolid", "Catania"]
EMPLOYERS = ["Termovia", "Logicasa", "Farmacorp Sud", "Nordlicht Textiles", "Vectra Callcenter"]
PETS = ["Pistacchio", "Bong", "Frida", "Titi"]

PERSONAL_ENTS = dict(partner="PEOPLE", cousin="PEOPLE", city="HOMETOWNS", employer="EMPLOYERS", pet="PETS")

THREADS = [
    dict(
        name="residence permit", short=["the permit", "my residence permit", "the visa papers", "immigration things"],
        ents=dict(hr="PEOPLE", friend="PEOPLE"),
        slots=[
            dict(id="appointment", kind="date", type="plan", topic="my appointment at the immigration office",
                 q=["When is my appointment at the immigration office?",
                    "What day do I have to go to the office for the permit?",
                    "When do they take my fingerprints for the permit?"],
                 say=["my appointment at immigration office is on {v}", "they gave me appointment for {v}",
                      "finally I got a slot at the immigration office, it is {v}",
                      "I must present myself at the office on {v}",
                      "the biometrics appointment is {v}, early in the morning",
                      "on {v} I go for the fingerprints and the interview",
                      "the office wrote me, I have to come {v}"]),
            dict(id="permit_fee", kind="number", num=(85, 390), fmt=["€{}", "{} euros"], type="knowledge",
                 topic="the permit fee",
                 q=["How much is the fee for my residence permit?", "What do I pay for the permit application?"],
                 say=["the fee for the permit is {v}", "I have to pay {v} for the application",
                      "they ask {v} for the residence permit, quite expensive",
                      "the application costs {v}, and no refund if they refuse",
                      "{v} is the fee, it is written on the website", "for the permit the office takes {v}"]),
            dict(id="permit_type", kind="thing", pool="PERMITS", type="decision", topic="the permit type",
                 q=["Which type of permit am I applying for?", "What kind of residence permit did I choose?"],
                 say=["I apply for the {v}", "the lawyer says {v} is the best for my case",
                      "we decided for the {v}", "I go for the {v}, it is more fast",
                      "my application is for a {v}", "on the form I marked {v}"]),
            dict(id="lawyer", kind="name", pool="PEOPLE", type="relationship", topic="my immigration lawyer",
                 q=["Who is my immigration lawyer?", "Which lawyer is handling my permit case?"],
                 say=["my immigration lawyer is {v}", "{v} is my lawyer for the permit",
                      "I found a lawyer, {v}, who speaks also my language",
                      "from now {v} handles my case", "{v} will be my lawyer, a colleague recommended"]),
            dict(id="office", kind="place", pool="OFFICES", type="knowledge", topic="the immigration office",
                 q=["Which immigration office do I have to go to?", "Where is my permit case handled?"],
                 say=["I must go to the {v}", "my case is at the {v}", "the appointment is in the {v}",
                      "they send me to the {v}, very far from my home", "responsible for me is the {v}"]),
        ],
        facts=[("event", "yesterday I have sent all the scans to {hr} in HR, the answer was they look fine"),
               ("knowledge", "the permit is valid for {few} years, after that I can ask permanent residence"),
               ("relationship", "{hr} from HR is helping me with the letter of the company"),
               ("decision", "I decided to not use an agency, I do the application by myself"),
               ("knowledge", "my current visa expires in {few} weeks so the time is short"),
               ("event", "the translator made a mistake in my birth certificate so everything had to be repeated"),
               ("preference", "I prefer to go in person than sending by post, I don't trust the post here"),
               ("knowledge", "during the waiting I am allowed to work, this is confirmed"),
               ("relationship", "my friend {friend} did the same process last year and gives me many tips")],
        loops=[dict(acts=["get the apostille on my birth certificate", "make the apostille for the birth certificate"],
                    opens=["still I did not get the apostille for my birth certificate, and it is urgent"],
                    done=["the notary stamped my birth certificate, it is valid for abroad now",
                          "the certificate came back from the notary with the stamp on it"]),
               dict(acts=["ask {hr} for the employer letter", "get the company letter signed by {hr}"],
                    opens=["waiting for answer from {hr} about the employer letter",
                           "it is on me to chase {hr} for the letter of the company"],
                    done=["I have the paper from work in my hands now, with stamp and everything",
                          "{hr} gave me the signed letter this morning, it is in my folder"]),
               dict(acts=["make the biometric photos", "take passport photos in the right format"],
                    opens=["they want biometric photos and I have none, I must not forget this"],
                    done=["the photo shop near the station printed them in correct size, they are in my wallet",
                          "the pictures are done, {few} copies are in my wallet"]),
               dict(acts=["pay the application fee at the bank", "do the bank transfer for the permit fee"],
                    done=["the receipt of the transfer is printed and in the folder",
                          "bank shows the money for the permit left my account yesterday"])],
        asks=[("what documents normally they ask for a residence permit?",
               "Usually: a valid passport, biometric photos, proof of address, health insurance, a work contract or "
               "proof of income, and the application form. Check your office's own list, because it varies."),
              ("is it normal the office don't answer my emails since weeks?",
               "Sadly it's common with busy immigration offices. A polite follow-up, or calling right at opening "
               "time, often works better than sending more emails."),
              ("this bureaucracy makes me so tired honestly",
               "It really is exhausting. Would a simple checklist help, so you can see what is already behind you?")],
        maybe=["if they refuse me, I think I go back home for some months, but I don't want to think about it",
               "maybe in the future I apply for citizenship, who knows",
               "do you know if they accept copies or only the originals?"],
    ),
    dict(
        name="master's enrolment", short=["the master", "the enrolment", "university stuff",
                                          "the {uni} application"],
        ents=dict(uni="UNIS", prof="PEOPLE", coord="PEOPLE"),
        slots=[
            dict(id="programme", kind="thing", pool="PROGRAMS", type="decision", topic="my master programme",
                 q=["Which master programme am I enrolling in?", "What master did I pick at {uni}?"],
                 say=["I enrol in the {v} at {uni}", "my programme will be the {v}", "I choose the {v} finally",
                      "I got a place in the {v}", "{v} is the master I go for",
                      "between all the options I take the {v}"]),
            dict(id="tuition", kind="number", num=(450, 2900), fmt=["€{} per semester", "{} euros each semester"],
                 type="knowledge", topic="the tuition",
                 q=["How much is my tuition per semester?", "What does {uni} charge me each semester?"],
                 say=["the tuition is {v}", "I pay {v} at {uni}", "{uni} wants {v}, less than I was thinking",
                      "the fees are {v}, plus the transport card", "tuition comes to {v} for me"]),
            dict(id="enrol_deadline", kind="date", type="plan", topic="the enrolment deadline",
                 q=["When is the enrolment deadline?", "Until when must I enrol at {uni}?"],
                 say=["the enrolment deadline is {v}", "I must complete the enrolment until {v}",
                      "enrolment closes {v}, after that no chance", "{uni} gives time until {v} for enrol",
                      "last day for the enrolment is {v}"]),
            dict(id="tutor", kind="name", pool="PEOPLE", type="relationship", topic="my academic tutor",
                 q=["Who is my academic tutor for the master?", "Who is my tutor at {uni}?"],
                 say=["my academic tutor will be {v}", "they assigned me {v} as tutor",
                      "{v} is my tutor, seems a very nice person", "the tutor for my group is {v}"]),
            dict(id="campus", kind="place", pool="CAMPUSES", type="knowledge", topic="the campus of my classes",
                 q=["Where are my master's classes?", "Which campus do I study at?"],
                 say=["the lessons are at {v}", "my classes happen in the {v}", "all my courses are on {v}",
                      "I will study at the {v}, it is a bit far", "we have the lectures in {v}"]),
        ],
        facts=[("event", "I received the admission letter from {uni} last week, I was crying a little"),
               ("knowledge", "the courses are all in English, so I don't need certificate of the local language"),
               ("plan", "I will keep my job part time during the master, only some days in the week"),
               ("relationship", "{prof}, my old professor from bachelor, wrote me a recommendation letter"),
               ("relationship", "{coord} in the admissions office is the person who answers my emails"),
               ("plan", "I want to make my thesis about something practical, not too much theory"),
               ("preference", "I prefer the evening classes because of my work"),
               ("event", "my bachelor diploma was recognised by the ministry, finally")],
        loops=[dict(acts=["upload the translated diploma to the portal", "put my diploma translation on the portal"],
                    opens=["the university portal still wants my diploma translation from me"],
                    done=["on the portal my diploma shows as received now, the status became green",
                          "the translation of the diploma is in the system since last night"]),
               dict(acts=["pay the enrolment deposit", "make the payment of the deposit to {uni}"],
                    done=["{uni} confirmed the money arrived, my place is secured", "email of confirmation arrived, my place is reserved now"]),
               dict(acts=["ask {prof} for a second reference letter", "write to {prof} about the reference"],
                    opens=["I am waiting still for {prof} to reply me about the reference"],
                    done=["{prof} sent the reference directly to admissions",
                          "the recommendation from {prof} is attached to my file now"]),
               dict(acts=["find a room near the campus", "look for accomodation close to university"],
                    done=["I have keys for a student flat now, shared with {few} others",
                          "signed the contract for a student room, few minutes walking from the lessons"])],
        asks=[("how I can write a good motivation letter?",
               "Open with why this programme specifically, connect it to something concrete you've done, and end "
               "with what you want to do after. Keep it to about a page and cut anything generic."),
              ("is it very hard to study and work at the same time?",
               "It's demanding but common. It helps to agree fixed work days early and protect your exam periods."),
              ("I am a bit scared to be student again at my age",
               "That's a very normal feeling - and mature students often do really well because they know why they're there.")],
        maybe=["if I fail the first exams maybe I change to part-time study",
               "in another life I would study medicine haha",
               "do you know if the student card gives discount for the train?"],
    ),
    dict(
        name="apartment purchase", short=["the apartment", "the flat buying", "the mortgage", "our house hunting"],
        ents=dict(agent="PEOPLE", notary="PEOPLE"),
        slots=[
            dict(id="price", kind="number", num=(140, 460), fmt=["€{}k", "€{},000"], type="decision",
                 topic="the apartment price",
                 q=["How much are we paying for the apartment?", "What is the price of the flat we are buying?"],
                 say=["the price we agreed is {v}", "we made the offer of {v} and they accepted",
                      "the flat costs {v} at the end", "seller accepted {v}, I cannot believe it",
                      "we pay {v} for the apartment", "final price: {v}"]),
            dict(id="district", kind="place", pool="DISTRICTS", type="plan", topic="the neighbourhood of the flat",
                 q=["In which neighbourhood is the apartment?", "Where is the flat we are buying?"],
                 say=["the apartment is in {v}", "we buy in {v}, near to the park",
                      "finally we found something in {v}", "{v} will be our neighbourhood",
                      "the flat is located in {v}, very quiet area"]),
            dict(id="signing", kind="date", type="event", topic="the signing at the notary",
                 q=["When do we sign at the notary?", "What is the date of the deed signing?"],
                 say=["the signing at notary is {v}", "we sign the deed on {v}",
                      "notary appointment for the signing is {v}", "on {v} we become owners, if everything goes ok",
                      "the act will be signed {v}"]),
            dict(id="term", kind="number", num=(12, 35), fmt=["{} years"], type="decision", topic="the mortgage length",
                 q=["How long is our mortgage?", "For how many years is the loan?"],
                 say=["the mortgage is for {v}", "we take the loan on {v}", "we will pay the mortgage during {v}",
                      "the bank gives us {v} to pay back", "{v} of mortgage, it sounds like forever"]),
            dict(id="lender", kind="name", pool="BANKS", type="decision", topic="our mortgage bank",
                 q=["Which bank gives us the mortgage?", "Who is our mortgage lender?"],
                 say=["we take the mortgage with {v}", "{v} approved our loan",
                      "the best offer was from {v}, so we go with them", "our bank for the mortgage is {v}",
                      "we sign the loan with {v}"]),
        ],
        facts=[("decision", "we want a second bedroom for the guests, this is a must"),
               ("relationship", "{agent} is our real estate agent, very patient with us"),
               ("event", "on Saturday we visited {few} apartments, all of them too dark"),
               ("knowledge", "the notary costs are around {few} percent of the price here"),
               ("plan", "we move in only after the bathroom is renovated"),
               ("preference", "I don't want ground floor, is too noisy and not safe"),
               ("relationship", "{notary} will be our notary, {partner} knows this office from work"),
               ("identity", "this is the first time in my life I buy something so big")],
        loops=[dict(acts=["send my salary slips to the bank", "give the last payslips to the bank"],
                    opens=["the bank is waiting my payslips, I must send them"],
                    done=["the bank advisor says all my salary papers arrived",
                          "payslips are with the bank since yesterday"]),
               dict(acts=["book the house inspection", "find an inspector for checking the apartment"],
                    done=["the inspector came and the report is in my email, no big problems",
                          "we have the inspection report now, only little humidity in the bathroom"]),
               dict(acts=["call {agent} about the parking space", "ask {agent} if the parking is included"],
                    opens=["it is on my head to ask {agent} about the parking"],
                    done=["{agent} answered: the garage place comes with the flat, no extra cost",
                          "parking question is clear, {agent} answered it comes together with the flat"]),
               dict(acts=["transfer the deposit to the notary", "pay the deposit at the notary"],
                    done=["the notary confirmed the money arrived on their account",
                          "the money is on the notary account now, we are safe"])],
        asks=[("what I should check when I visit an apartment?",
               "Look at light at different times of day, signs of damp, water pressure, the state of windows and "
               "the building's common areas, and ask about the service charges and any planned works."),
              ("fixed or variable rate, what is better in general?",
               "Fixed gives certainty about your payments; variable can be cheaper but carries risk if rates rise. "
               "It depends on how much uncertainty your budget can handle."),
              ("we are so nervous, it is a lot of money", "That's completely understandable - it's a huge step. "
               "Taking it document by document makes it feel more manageable.")],
        maybe=["if prices go down next year we will regret, but who knows",
               "some day I want a house with garden, but not now",
               "do you know what is the difference between cadastral value and market value?"],
    ),
    dict(
        name="family visit", short=["the visit", "my parents' visit", "the family trip", "when my family comes"],
        ents=dict(sibling="PEOPLE", relative="PEOPLE"),
        slots=[
            dict(id="arrival", kind="date", type="plan", topic="my parents' arrival",
                 q=["When do my parents arrive?", "What day does my family land?"],
                 say=["my parents land on {v}", "they arrive {v}, in the evening", "the flight of my family comes {v}",
                      "mom and dad will be here {v}", "they booked the flight for {v}",
                      "arrival is {v}, I am counting the days"]),
            dict(id="stay", kind="number", num=(10, 45), fmt=["{} days"], type="plan",
                 topic="how long my family stays",
                 q=["How long are my parents staying?", "How many days will my family stay with us?"],
                 say=["they stay {v} with us", "the visit is {v} in total", "my parents will be here for {v}",
                      "{v} they stay, then they go back", "the return ticket is after {v}"]),
            dict(id="airport", kind="place", pool="AIRPORTS", type="knowledge", topic="the airport they fly into",
                 q=["Which airport do my parents fly into?", "Where do I pick up my family?"],
                 say=["they fly into {v}", "the plane lands at {v}", "I pick them up at {v}",
                      "their flight arrives to {v}", "cheaper was the flight to {v}, so they take that"]),
            dict(id="day_trip", kind="place", pool="TRIPS", type="plan", topic="the day trip with my family",
                 q=["Where are we going for the day trip with my parents?",
                    "What is the destination of the family excursion?"],
                 say=["for the day trip we go to {v}", "I want to show them {v}", "we plan an excursion to {v}",
                      "the trip with my parents will be to {v}", "{v} is the place for our day out"]),
            dict(id="pickup", kind="name", pool="PEOPLE", type="relationship", topic="the airport pickup driver",
                 q=["Who is picking up my parents at the airport?", "Who drives to get my family?"],
                 say=["{v} will pick them up from airport", "{v} offered to drive and bring them home",
                      "{v} goes with the car to take them", "my friend {v} does the airport pickup"]),
        ],
        facts=[("relationship", "my sibling {sibling} comes also, with the kids"),
               ("knowledge", "my father cannot walk much, his knee is bad"),
               ("event", "their visa was approved on {day}, they were so happy"),
               ("plan", "they will sleep in our bedroom and we sleep in the living room"),
               ("preference", "my mother wants to cook every day, I cannot stop her haha"),
               ("identity", "I have not seen my parents since almost {few} years"),
               ("decision", "we decided to not go to the capital, too much walking for them"),
               ("relationship", "{relative} from my family asked to come too but there is no place")],
        loops=[dict(acts=["buy the travel insurance for my parents", "make travel insurance for mom and dad"],
                    opens=["my parents still have no travel insurance, and this is on me"],
                    done=["parents are insured now, I have the policy as pdf",
                          "the insurance for my parents is active from the day they land"]),
               dict(acts=["book a table for my mother's birthday dinner", "make a reservation for mom's birthday"],
                    done=["we have a table for Saturday night at the fish place, she will love it",
                          "the restaurant sent me SMS, the table is ours"]),
               dict(acts=["prepare the guest room", "clean and arrange the small room for them"],
                    done=["new bed and curtains are in, it looks like a hotel now",
                          "the room for them is ready, fresh sheets are on since this morning"]),
               dict(acts=["ask my boss for days off", "request holidays for the visit"],
                    opens=["still I did not ask holidays for the visit, I must do it"],
                    done=["my boss said yes, I am free all the time they are here",
                          "HR system shows me free during the whole visit"])],
        asks=[("what can I do with old people in the city when it rains?",
               "Museums with benches and a café, a covered market, a slow lunch somewhere nice, a concert or a "
               "film with subtitles - things with short walks and places to sit."),
              ("how I say to my mother nicely that she doesn't need to clean my house?",
               "You could thank her first and then give her something else to enjoy, like: 'You're on holiday "
               "here - let me spoil you for once.'"),
              ("I am so excited, I miss them too much", "That's lovely. The wait will feel long, but it will go fast "
               "once they're here - enjoy every bit.")],
        maybe=["if they like it here, maybe in future they move closer, but it's a dream",
               "would be nice to take them to the sea but it's too far",
               "do you think jet lag is worse going west or going east?"],
    ),
    dict(
        name="driving licence", short=["driving lessons", "the licence", "my driving", "the driving test"],
        ents=dict(school="SCHOOLS", buddy="PEOPLE"),
        slots=[
            dict(id="test_date", kind="date", type="event", topic="my practical driving exam",
                 q=["When is my driving test?", "What date is my practical exam?"],
                 say=["my practical exam is {v}", "I have the driving test on {v}", "{school} booked my exam for {v}",
                      "the examiner comes {v}, I am already nervous", "exam day is {v}",
                      "on {v} I do the test, wish me luck"]),
            dict(id="instructor", kind="name", pool="PEOPLE", type="relationship", topic="my driving instructor",
                 q=["Who is my driving instructor?", "Who teaches me to drive now?"],
                 say=["my instructor is {v}", "{v} is teaching me to drive now",
                      "at {school} they give me {v} as instructor", "I have the lessons with {v}, very calm person",
                      "{v} is my new instructor"]),
            dict(id="package", kind="number", num=(10, 40), fmt=["{} lessons"], type="decision",
                 topic="my lesson package",
                 q=["How many lessons did I buy?", "How big is my driving lesson package?"],
                 say=["I bought a package of {v}", "{school} sold me {v} in a package", "I paid for {v} in total",
                      "the package has {v}, I hope it is enough", "I take {v}, this is the plan"]),
            dict(id="car", kind="thing", pool="CARS", type="knowledge", topic="the car I learn on",
                 q=["What car do I learn to drive on?", "Which car model do I use in the lessons?"],
                 say=["I learn on a {v}", "the school car is a {v}", "we do the lessons with a {v}",
                      "the car of my instructor is a {v}, small and easy", "I drive a {v} in the lessons"]),
            dict(id="centre", kind="place", pool="CENTRES", type="knowledge", topic="the exam centre",
                 q=["Where is my driving exam?", "Which test centre do I take the exam at?"],
                 say=["the exam is at {v}", "I do the test in {v}", "they send me to {v} for the exam",
                      "{v} is where I take the exam, the streets there are difficult"]),
        ],
        facts=[("event", "I passed the theory test on {day}, only few mistakes"),
               ("preference", "I want to learn on manual gears, not automatic, after it is cheaper to buy a car"),
               ("knowledge", "here you need some hours of night driving before the exam"),
               ("relationship", "my friend {buddy} lets me practise with the family car on Sundays"),
               ("identity", "in my country I never drove, we took the bus everywhere"),
               ("event", "yesterday I have stalled the car {few} times at the roundabout, so embarassing"),
               ("decision", "I take the lessons at {school} because it is close to my work"),
               ("plan", "after the licence I want to buy a small used car")],
        loops=[dict(acts=["do the eye test for the licence", "make the eye exam at the optician"],
                    done=["my eyes are ok on paper now, the form is signed",
                          "eye certificate is in my folder, all fine"]),
               dict(acts=["practise parallel parking with {buddy}", "train the parking with {buddy} on Sunday"],
                    opens=["parking is my weak point, {buddy} and me must train it"],
                    done=["my parking is much better now, {buddy} was very patient",
                          "after the whole afternoon with {buddy} I park almost perfect"]),
               dict(acts=["pay the exam fee to {school}", "give {school} the money for the exam"],
                    done=["{school} gave me the receipt, now nothing stops the exam", "the exam is paid, receipt is in my bag"]),
               dict(acts=["book an extra lesson for the highway", "make a booking for a motorway lesson"],
                    opens=["I never drove on the highway yet, a lesson for it is necessary"],
                    done=["the motorway lesson happened on {day}, scary but ok",
                          "highway is behind me, I drove at full speed for the first time"])],
        asks=[("how I can stop being nervous in the exam?",
               "Do a mock test with your instructor on the real routes, sleep well, and remember the examiner "
               "expects small imperfections - focus on driving safely, not perfectly."),
              ("what is the trick for roundabouts with many lanes?",
               "Choose your lane early based on your exit, signal clearly, and keep checking your mirrors - "
               "slow and predictable is better than quick."),
              ("today I almost hit a cyclist, I am still shaking", "That sounds scary. Take a moment to calm "
               "down - it's good you noticed in time, and it's worth talking it through with your instructor.")],
        maybe=["if I fail the exam I think I give up and take the bus forever haha",
               "maybe in the future I try also the motorbike licence",
               "do you know if the licence from here works in my home country?"],
    ),
    dict(
        name="catering business", short=["the catering", "my catering", "the side business", "{brand}"],
        ents=dict(brand="BRANDS", client="CLIENTS"),
        slots=[
            dict(id="per_guest", kind="number", num=(12, 58), fmt=["€{} per person", "{} euros per head"],
                 type="decision", topic="our price per guest",
                 q=["How much do we charge per person for catering?", "What is the {brand} price per guest?"],
                 say=["we charge {v}", "the menu costs {v}", "price for the standard menu is {v}",
                      "we decided {v}, including drinks", "{v} is our price now", "our offers are at {v}"]),
            dict(id="wedding", kind="date", type="event", topic="the wedding we cater",
                 q=["When is the wedding we are catering?", "What date is our big wedding job?"],
                 say=["the wedding we cater is {v}", "our first big job is the wedding on {v}",
                      "the couple marries {v} and we do the food", "{v} is the wedding, a lot of guests",
                      "we cook for the wedding on {v}"]),
            dict(id="kitchen", kind="place", pool="KITCHENS", type="plan", topic="the kitchen we rent",
                 q=["Where do we cook for the catering?", "Which shared kitchen do we rent?"],
                 say=["we rent a kitchen at {v}", "we cook in {v} now", "{v} gives us the kitchen on weekends",
                      "from this month we use {v}", "we found space at {v}, with big ovens"]),
            dict(id="dish", kind="thing", pool="DISHES", type="preference", topic="our signature dish",
                 q=["What is our signature dish?", "Which dish is the star of {brand}?"],
                 say=["our signature dish is {v}", "everybody asks for the {v}", "the star of the menu is {v}",
                      "we are known for {v}, recipe of my grandmother", "{v} is what we make best"]),
            dict(id="helper", kind="name", pool="PEOPLE", type="relationship", topic="my kitchen helper",
                 q=["Who helps me cook for the catering?", "Who is my helper in the kitchen?"],
                 say=["{v} helps me in the kitchen on weekends", "my helper is {v}",
                      "I hired {v} for help with the cooking", "{v} is cooking with me now, paid per event"]),
        ],
        facts=[("decision", "we call the business {brand}, my cousin {cousin} made the logo"),
               ("knowledge", "for selling food I need a hygiene certificate, the course takes {few} days"),
               ("relationship", "{client} is our first real client, they want lunch for the office every Friday"),
               ("event", "last weekend we did a small party and everybody asked for our number"),
               ("preference", "I want to use only local vegetables, it is important for me"),
               ("plan", "for now it stays a side business, I don't quit my job"),
               ("identity", "I learned cooking from my grandmother, she had a small restaurant"),
               ("decision", "no more cakes, the profit is too small")],
        loops=[dict(acts=["register the business at the chamber of commerce", "make the registration of {brand}"],
                    opens=["{brand} is still not registered, I must go to the chamber of commerce"],
                    done=["{brand} has a registration number now", "the chamber accepted the papers, we are official"]),
               dict(acts=["send the quote to {client}", "prepare an offer for {client} and send it"],
                    done=["{client} read our prices and said it looks good",
                          "{client} has our prices in their inbox since Tuesday"]),
               dict(acts=["buy bigger containers for transport", "order insulated boxes for the delivery"],
                    done=["the thermo boxes arrived, they are in the garage",
                          "{few} new cool boxes were delivered this morning"]),
               dict(acts=["do the food safety course", "finish the hygiene course online"],
                    opens=["the hygiene course, still I did not start it"],
                    done=["my hygiene certificate came by email, I printed it",
                          "I hold the food safety certificate in my hand now"])],
        asks=[("how to calculate price per person for catering?",
               "Add up ingredient cost per portion, your time, kitchen rent, transport and packaging, then add a "
               "margin on top - many small caterers aim for food cost at around a third of the price."),
              ("is it better to make Instagram or website first?",
               "For food, Instagram usually comes first: photos sell it. A simple page with menu and contact can follow."),
              ("my feet hurt after cooking all day lol", "Well earned! Good shoes and an anti-fatigue mat in the "
               "kitchen make a real difference.")],
        maybe=["if some day we have a food truck it would be amazing",
               "maybe I should do a vegan menu also, I don't know",
               "how much costs a professional oven, do you know?"],
    ),
]

# --- corrections: (cue, frame, value kinds it suits (empty: any), same session / later / any) ---------------
CORRECTIONS = [
    ("explicit", "Correction: {say} - not {old}, my mistake", (), "any"),
    ("explicit", "I must correct about {topic}: it is {v}", (), "any"),
    ("explicit", "small correction for {topic}, is {v} and not {old}", (), "any"),
    ("actually", "actually {say}, I was wrong before", (), "any"),
    ("actually", "Ah no, actually it is {v}", (), "same"),
    ("actually", "hmm actually I checked again and {say}", (), "any"),
    ("misspoke", "sorry, I said it wrong before. {Say}", (), "any"),
    ("misspoke", "I wrote {old} but I wanted to write {v}, sorry", (), "same"),
    ("misspoke", "my bad, I mixed up things - {say}", (), "any"),
    ("change", "the plan is changed: {say}", (), "later"),
    ("change", "new plan, {say}, no more {old}", (), "later"),
    ("moved", "they moved {topic} to {v}", ("date",), "later"),
    ("moved", "they have postponed {topic} until {v}", ("date",), "later"),
    ("moved", "the place is different now, {say}", ("place",), "later"),
    ("is-now", "{Topic} is {v} now", (), "later"),
    ("is-now", "now {topic} is {v}, not anymore {old}", (), "later"),
    ("scratch", "forget what I wrote, {say}", (), "same"),
    ("scratch", "no wait, forget {old} - {say}", (), "same"),
    ("scratch", "please forget what I told about {topic}, {say}", (), "any"),
    ("implicit", "So, {say}", (), "later"),
    ("implicit", "I spoke with them today and {say}", (), "later"),
    ("implicit", "Good news, {say}", (), "later"),
    ("implicit", "{Say}, they told me this morning", (), "later"),
    ("updated", "Update about {topic}: {v}", (), "later"),
    ("updated", "little update - {say}", (), "later"),
    ("updated", "new information, {topic} went from {old} to {v}", (), "later"),
]

LOOP_OPEN = ["it is on me to {act} {due}", "I must not forget to {act}", "tomorrow I go to {act}",
             "still I did not {act}, I have to do it {due}", "please remember me to {act} {due}",
             "I have to {act} {due}", "put in my list: {act}", "I will {act} {due}, surely",
             "it is on my head to {act}", "write down for me that I need {act} {due}",
             "I promised to {act} {due}, so I must do it", "don't let me to forget: {act}",
             "this week I really should {act}, no excuses", "can you keep in mind that I must {act} {due}?",
             "I take the task to {act}", "I said I will {act} {due}", "somebody must {act} and this somebody is me",
             "{due} I have to {act}, otherwise is big problem", "my homework for this week: {act}",
             "is my responsability to {act} {due}"]
DUES = ["until Friday", "until end of the week", "latest on Monday", "this week still", "until tomorrow evening",
        "in the next days", "before the weekend comes", "until Wednesday", "today or tommorow",
        "before end of the month"]

ACK = ["Okay, I've noted that.", "Okay, I understand now.", "Alright.", "Okay, that is useful.", "Clear, thank you.",
       "Okay - anything more about it?", "That sounds reasonable.", "I see. Noted.", "Thanks for telling me.",
       "Okay, I'll keep it in mind."]
ACK_VALUE = ["Saved {topic} as {v}.", "I have {v} for {topic} now.", "Got that - {topic}, {v}.",
             "Alright, I'll remember {topic} as {v}."]
ACK_CHANGE = ["Okay, updating {topic}: {v} instead of {old}.", "Got it, so it's {v} now, no longer {old}.",
              "Thanks - I've changed {topic} to {v}.", "Noted, {v} replaces {old}.",
              "Understood, {topic} is {v} from now on."]
ACK_TODO = ["Okay, I'll keep track of that for you.", "Noted on your to-do list.",
            "I've written it down as something to do.", "Sure, I'll remind you about it.",
            "Added - I'll keep it open until you tell me it's done."]
ACK_DONE = ["Great, that's finished then.", "Well done - I'll mark it as done.", "Perfect, that's closed.",
            "Nice progress, ticking it off.", "Good, that is a worry less."]

OPENERS = ["hello, good day", "hello, it's me again", "hi, I have a question about {short}", "hey, short thing about {short}",
           "sorry to disturb again", "good evening, very tiring day today", "hello! you have some minutes?",
           "so, again {short}", "hi, I come back to {short}", "ok let's continue", "buongiorno haha", "hola, hello",
           "I need to think together with you a little", "hello, there is news about {short}"]
GREETINGS = ["Good morning, {me}! What's happening?", "Hello {me}, I'm listening.", "Hi! Go ahead, I'm here.",
             "Of course - what is it?", "Hey {me}, nice to hear from you. What's new?", "Hello again! How can I help?"]
CLOSERS = ["ok, this is all for today, thank you", "thank you so much, it helps me", "I must go now, bye bye",
           "ok perfect, we speak later", "good, that's everything", "thanks a lot!! ciao"]
GOODBYES = ["No problem at all!", "Have a good rest of your day.", "Talk to you soon, {me}.", "Glad I could help.",
            "See you next time!"]
FILLERS = [("okay", "Alright."), ("mmm wait, I think", "Sure, no hurry."),
           ("sorry, somebody is at the door", "Of course, no rush at all."), ("haha", "🙂"), ("yes yes", "Good."),
           ("where I was?", "The topic was {short}."), ("thank you!!", "My pleasure!"),
           ("sorry my english is not perfect", "Your English is perfectly clear, don't worry.")]
RECAP_ASKS = ["can you resume for me where we are with {short}?", "please make a small summary",
              "what is the situation of {short} now, shortly?", "tell me in few words where we are"]
RECAP_TODO = ["What is left: {todo}", "Not done yet: {todo}", "Pending on your side: {todo}"]
RECAP = ["Here's {short} in brief: {body}.", "Situation now: {body}.", "Short summary - {body}.",
         "Until now: {body}."]
LEADS = ["news about {short}: ", "so, for {short} - ", "just to tell you, ", "small news: ", "to remember: "]
LOWER_OK = (r"(?:It|Still|Please|Tomorrow|Put|Write|Don't|This|Can|Somebody|Is|Until|Latest|Today|Before|The|My|"
            r"Our|We|They|So|Now|Actually|Ah|Hmm|Forget|Sorry|Small|New|Little|Good|Update|Finally|Last|From|"
            r"Between|Everybody|Mom|Arrival|Final|Seller|Exam|Price|Notary|Cheaper|Responsible|All|On|Yesterday|"
            r"During|Parking|Deposit|Payslips|Bank|Guest|Highway|Eye|Email|Here|After|For|No|Waiting|In)\b")
JOINERS = [" And plus ", " Ah, and ", " By the way, ", " Then, "]

PERSONAL = [("identity", "I work in {employer}, in the logistics department"),
            ("identity", "I come from {city} originally, I live here since {few} years"),
            ("relationship", "my partner {partner} is a teacher in primary school"),
            ("relationship", "my cousin {cousin} lives also in this city, we meet every Sunday"),
            ("preference", "I don't eat pork, just so you know if you suggest food"),
            ("preference", "please answer me in simple english, not too long"),
            ("preference", "I am more productive in the morning, after lunch my head is slow"),
            ("relationship", "we have a cat, {pet}, he sleeps all the day"),
            ("identity", "besides my mother tongue I speak also a bit of French, but english is the most difficult for me"),
            ("preference", "I hate coriander, for me it tastes like soap"),
            ("event", "{partner} and me came back last week from holidays at the sea")]

CHITCHAT = [("what is a good series to learn english?", "Sitcoms are great for everyday English - the episodes are "
             "short and the language is conversational. Turn on English subtitles, not ones in your own language."),
            ("today it's raining like crazy", "Perfect weather for tea and a blanket, then."),
            ("I ate too much at lunch, now I'm sleeping on the desk", "A short walk or some fresh air usually helps "
             "with the after-lunch slump."),
            ("give me an idea for fast dinner please", "Fried rice with whatever vegetables you have and an egg - "
             "quick, cheap and uses up leftovers."),
            ("why english has so many irregular verbs?", "Mostly history: the most common verbs are the oldest, and "
             "words people use all the time resist becoming regular."),
            ("my neighbour plays music very loud at night", "That's frustrating. A polite note first, and earplugs "
             "in the meantime, might help."),
            ("do you know a good book, not too difficult?", "Short modern novels with lots of dialogue work well "
             "for learners, or a graded reader of a classic."),
            ("I lost my umbrella again, third this year", "Maybe it's time for a bright colour that's hard to "
             "leave behind!"),
            ("how do you say 'saudade' in english?", "There's no exact word - something like a deep, nostalgic "
             "longing for someone or something far away."),
            ("coffee here is so weak compared to my country", "Many people say that! A moka pot at home might make "
             "you happier."),
            ("it is normal to dream in other language?", "Yes, it's quite common when you live in a language every "
             "day - many people see it as a sign of progress."),
            ("which is better, cats or dogs?", "Both have fans. Cats suit small flats, dogs get you outside more."),
            ("my back hurts from the office chair", "Check that your screen is at eye level, and get up to stretch "
             "every hour or so."),
            ("I finally understood the washing machine symbols lol", "A real victory! Those symbols confuse "
             "everybody."),
            ("what is fun to do on Sunday when all shops are closed?", "A long walk in a park, a museum, a picnic, "
             "or cooking something slow at home."),
            ("how to keep my herbs alive on the balcony?", "Good light, water when the soil is dry, and a bigger "
             "pot than you'd think."),
            ("my laptop is so slow these days", "Closing browser tabs and checking which programs start at boot "
             "often helps a lot."),
            ("is it rude to not give tip here?", "It depends on the country - in many places in Europe rounding up "
             "the bill is enough."),
            ("I want to start running but I'm lazy", "Start very small: a few minutes of jogging mixed with "
             "walking. Regularity matters more than distance."),
            ("tell me something interesting", "Honey practically never spoils - archaeologists have found edible "
             "honey in ancient tombs.")]
REQUESTS = [("can you correct my english in this: 'Dear {stranger}, I write you because I did not received the "
             "invoice from {org}'",
             "'Dear {stranger}, I am writing because I have not received the invoice from {org}.' - 'write you' "
             "becomes 'am writing', and 'did not received' becomes 'have not received'."),
            ("write please a short email to {stranger} at {org}, I cannot come on {day}, ask if we can do a call "
             "of {n} minutes",
             "Of course:\n\nDear {stranger},\n\nUnfortunately I won't be able to come on {day}. Could we have a "
             "{n}-minute call instead?\n\nKind regards,\n{me}"),
            ("make a summary: '{org} had {big} complaints this year, {stranger} wants to open {n} new offices'",
             "{org} received {big} complaints this year; {stranger} proposes opening {n} new offices."),
            ("ideas of name for the flower shop of {stranger}",
             "Some options: {stranger}'s Garden, Petal & Stem, Bloom Corner, The Green Door, Wildflower House."),
            ("translate to french: 'the package will arrive in {few} days'", "'Le colis arrivera dans {few} jours.'"),
            ("how I say politely to {stranger} that they must pay {org} €{big}?",
             "'Dear {stranger}, this is a friendly reminder that an amount of €{big} is still due to {org}.'"),
            ("write a small poem about a dog who eats {few} shoes", "A dog with a taste for the floor / found {few} "
             "shoes beside the door; / he chewed every lace / with joy on his face, / then looked up and asked "
             "for some more."),
            ("help me answer to {stranger}, the order was late and now they ask €{n} back",
             "Dear {stranger}, I'm sorry your order arrived late. I've issued a refund of €{n}, which should reach "
             "you within a few working days."),
            ("what to bring for {few} days of hiking in mountains?", "Layers, a rain jacket, broken-in boots, socks "
             "for {few} days, a hat, sunscreen, snacks, a water bottle and a small first-aid kit."),
            ("explain me inflation like for a child", "If prices go up a little every year, the same coins buy a "
             "bit less each time - that's inflation.")]
DISTRACTORS = ["if I had more time I would learn also German, but no",
               "do you remember the name of the app for learning words with cards?",
               "honestly I don't understand anything about the taxes in this country",
               "maybe I should go to the gym, but I am too lazy for it",
               "some day I want to learn to play guitar",
               "the internet bill I paid already last month",
               "last year I have renewed my passport, that was a nightmare",
               "should I call the bank or just write them? I don't know",
               "would be nice if the bus came on time, just once",
               "I could wash the car this weekend, or maybe not",
               "{partner} always says I work too much, who knows"]
UNSURE = ["I don't think you told me that yet.", "Hmm, I don't know - you haven't mentioned it.",
          "You didn't mention this to me yet, sorry.", "I don't have that information. Should we look it up?"]
SHRUG = ["Haha, fair.", "I understand completely.", "That's very human.", "Sounds reasonable to me.",
         "No judgement here!"]
SUGGEST = [("do I forget something?", "Maybe check that all your documents are copied before {day}, and keep the "
            "originals together in a single folder."),
           ("what you think?", "An option is to ask someone who did it already before deciding - but you know best."),
           ("what you would do if you are me?", "Personally I'd reserve some quiet time on {day} to go through "
            "everything calmly."),
           ("other ideas?", "You could keep a shared note with your family so nothing gets lost; I can start a "
            "template if you like.")]
